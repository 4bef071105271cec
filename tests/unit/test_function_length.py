"""No function under kit/ is over 60 lines, counted from its `def` line to its last line
(issue 23: a function that long holds several stages; split it along them)."""

from __future__ import annotations

import ast
from pathlib import Path

KIT = Path(__file__).resolve().parents[2] / "kit"
LIMIT = 60


def too_long(source: str, limit: int = LIMIT) -> list[tuple[str, int, int]]:
    """The functions (nested ones and methods too) of `source` over `limit` lines, as
    (qualified name, line of the def, lines)."""
    found: list[tuple[str, int, int]] = []

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            name = prefix
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                name = f"{prefix}{child.name}."
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                lines = (child.end_lineno or child.lineno) - child.lineno + 1
                if lines > limit:
                    found.append((name[:-1], child.lineno, lines))
            visit(child, name)

    visit(ast.parse(source), "")
    return found


def test_no_function_under_kit_is_over_60_lines() -> None:
    offenders = [
        f"{path.relative_to(KIT.parent)}:{line} {name} ({lines} lines)"
        for path in sorted(KIT.rglob("*.py"))
        for name, line, lines in too_long(path.read_text())
    ]
    assert not offenders, (
        f"functions over {LIMIT} lines (from def to last line); split each along its "
        "stages:\n" + "\n".join(offenders)
    )


def test_a_long_function_is_named_with_its_class_and_length() -> None:
    body = "".join(f"        x{i} = {i}\n" for i in range(60))
    source = f"class Box:\n    @property\n    def big(self):\n{body}\ndef small():\n    pass\n"
    assert too_long(source) == [("Box.big", 3, 61)]


def test_sixty_lines_are_allowed_and_nested_functions_count() -> None:
    inner = "".join(f"        y{i} = {i}\n" for i in range(61))
    source = "def outer():\n    def inner():\n" + inner + "    return inner\n"
    assert too_long(source) == [("outer", 1, 64), ("outer.inner", 2, 62)]
    fits = "def f():\n" + "".join(f"    z{i} = {i}\n" for i in range(59))
    assert too_long(fits) == []
    assert too_long(fits + "    z = 0\n") == [("f", 1, 61)]
