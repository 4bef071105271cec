"""Every single mutant of a solution: the operators' edits of its Terraform (terraform.py)
and worker code (python.py), kept only when the result still parses and differs from the
original once parsed (a broken or an identical mutant proves nothing)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

from kit.deploy import hcl
from kit.mutate import python, terraform
from kit.mutate.mutant import Edit, Mutant, make


def mutants(solution: Path) -> list[Mutant]:
    """The mutants of the solution, in file then line order, each id once."""
    found: dict[str, Mutant] = {}
    for path in sorted(_files(solution)):
        rel = path.relative_to(solution).as_posix()
        text = path.read_text()
        for edit in _edits(path, text):
            new = "".join(edit.apply(text.splitlines(keepends=True)))
            if _meaningful(path, text, new):
                mutant = make(rel, text, edit)
                found.setdefault(mutant.id, mutant)
    return sorted(found.values(), key=lambda m: (m.file, m.line, m.id))


def _files(solution: Path) -> Iterator[Path]:
    """The solution's Terraform and Python files, minus what a run never copies."""
    for path in solution.rglob("*"):
        parts = path.relative_to(solution).parts
        if path.is_file() and path.suffix in (".tf", ".py") \
                and not any(hcl.not_copied(p) for p in parts):
            yield path


def _edits(path: Path, text: str) -> Iterator[Edit]:
    return terraform.edits(text) if path.suffix == ".tf" else python.edits(text)


def _meaningful(path: Path, old: str, new: str) -> bool:
    """The mutated text parses, and its parse differs from the original's."""
    if path.suffix == ".py":
        try:
            return ast.dump(ast.parse(new)) != ast.dump(ast.parse(old))
        except SyntaxError:
            return False
    try:
        return hcl.loads(new) != hcl.loads(old)
    except Exception:  # noqa: BLE001 - python-hcl2 raises several kinds on bad input
        return False
