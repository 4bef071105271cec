"""Every module that patches moto names, in its docstring, the moto internals it touches.

The kit's fixes of moto (kit/sandbox/fidelity/, kit/sandbox/moto_*.py and the LocalStack
modules that patch moto) reach into moto's classes, backends and module globals, many of
them private. Each such module ends its docstring with a paragraph
`moto internals touched: <dotted names>`, so that a moto upgrade can be checked against
the list. This test keeps the list honest: every name the module imports from moto, and
every attribute it sets on one (`Name.attr = ...`, `setattr(Name, "attr", ...)`), must be
listed there.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
SANDBOX = ROOT / "kit" / "sandbox"
MODULES = sorted({*SANDBOX.glob("fidelity/*.py"), *SANDBOX.glob("moto_*.py"),
                  *SANDBOX.glob("localstack*.py")})
MARK = "moto internals touched:"
_DOTTED = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*")


def _listed(docstring: str) -> list[tuple[str, ...]]:
    """The dotted names of the docstring's last paragraph, if it is the one of MARK."""
    last = re.split(r"\n\s*\n", docstring.strip())[-1].strip()
    if not last.startswith(MARK):
        return []
    return [tuple(name.split(".")) for name in _DOTTED.findall(last[len(MARK):])]


def _is_moto(module: str) -> bool:
    return module == "moto" or module.startswith("moto.")


def _chain(node: ast.expr, imported: dict[str, str]) -> str | None:
    """`a.b.c` as moto names it, when `a` was imported from moto; else None."""
    attributes: list[str] = []
    while isinstance(node, ast.Attribute):
        attributes.insert(0, node.attr)
        node = node.value
    if isinstance(node, ast.Name) and node.id in imported:
        return ".".join([imported[node.id], *attributes])
    return None


def _targets(node: ast.AST) -> list[ast.expr]:
    """The targets an assignment statement binds, tuples unpacked."""
    if isinstance(node, ast.Assign):
        found = list(node.targets)
    elif isinstance(node, ast.AnnAssign | ast.AugAssign):
        found = [node.target]
    else:
        return []
    flat: list[ast.expr] = []
    while found:
        target = found.pop()
        if isinstance(target, ast.Tuple | ast.List):
            found.extend(target.elts)
        else:
            flat.append(target.value if isinstance(target, ast.Starred) else target)
    return flat


def unlisted_moto_names(source: str) -> list[str]:
    """The moto names a module's source imports or sets (at any depth) that the last
    paragraph of its docstring, `moto internals touched: ...`, does not list.

    An import `from moto.x import Name` needs `Name`, an assignment `Name.attr = ...` or
    `setattr(Name, "attr", ...)` needs `Name.attr` (moto's name, not an `as` alias), each as
    consecutive parts of a listed dotted name (`moto.x.Name.attr` lists both)."""
    tree = ast.parse(source)
    listed = _listed(ast.get_docstring(tree) or "")
    imported: dict[str, str] = {}  # local name -> moto's name of it
    needed: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and not node.level and _is_moto(node.module or ""):
            for alias in node.names:
                imported[alias.asname or alias.name] = alias.name
                needed.append(alias.name)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if _is_moto(alias.name):
                    imported[alias.asname or "moto"] = alias.name if alias.asname else "moto"
                    needed.append(alias.name)
    for node in ast.walk(tree):
        for target in _targets(node):
            if isinstance(target, ast.Attribute):
                needed.append(_chain(target, imported) or "")
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
                node.func.id == "setattr" and len(node.args) >= 2:
            owner = _chain(node.args[0], imported)
            name = node.args[1]
            if owner is not None:
                constant = isinstance(name, ast.Constant) and isinstance(name.value, str)
                needed.append(f"{owner}.{name.value}" if constant else owner)

    def is_listed(name: str) -> bool:
        parts = tuple(name.split("."))
        return any(dotted[i:i + len(parts)] == parts for dotted in listed
                   for i in range(len(dotted) - len(parts) + 1))

    return list(dict.fromkeys(n for n in needed if n and not is_listed(n)))


def test_the_modules_that_patch_moto_are_found() -> None:
    patching = [m for m in MODULES if "from moto" in m.read_text()]
    assert len(patching) >= 20, [m.name for m in patching]


@pytest.mark.parametrize("module", MODULES, ids=lambda m: str(m.relative_to(SANDBOX)))
def test_every_moto_name_a_module_touches_is_listed(module: Path) -> None:
    assert unlisted_moto_names(module.read_text()) == [], (
        f"{module.relative_to(ROOT)}: add these to the last paragraph of its docstring, "
        f"'{MARK} ...'")


LISTED = '''"""A fix.

moto internals touched: moto.sqs.models.Queue.attributes, SQSBackend.get_queue.
"""
'''


def test_a_module_listing_what_it_touches_passes() -> None:
    source = LISTED + '''
def fix():
    from moto.sqs.models import Queue, SQSBackend

    Queue.attributes = property(lambda self: {})
    queue = SQSBackend.get_queue
    queue.attributes = None  # not moto's: a local name
'''
    assert unlisted_moto_names(source) == []


def test_an_unlisted_import_is_reported() -> None:
    source = LISTED + '''
def fix():
    if True:
        from moto.sqs.models import Queue
        from moto.sqs.exceptions import SQSException as Refused
'''
    assert unlisted_moto_names(source) == ["SQSException"]


def test_an_unlisted_attribute_set_is_reported() -> None:
    source = LISTED + '''
from moto.sqs.models import Queue, SQSBackend
from moto.ec2.responses.flow_logs import FlowLogs as FlowLogsResponse
from moto.rds import responses

Queue.attributes, Queue._messages = None, None
setattr(SQSBackend, "receive_message", None)
setattr(SQSBackend, "get_queue", None)
FlowLogsResponse.create_flow_logs = None
responses.RDSResponse.params = None
'''
    assert unlisted_moto_names(source) == [
        "FlowLogs", "responses", "Queue._messages", "FlowLogs.create_flow_logs",
        "responses.RDSResponse.params", "SQSBackend.receive_message"]


def test_a_name_counts_only_whole_and_only_in_the_last_paragraph() -> None:
    source = '''"""A fix.

moto internals touched: moto.sqs.models.Queue.attributes.

Written for moto 5.2.
"""
from moto.sqs.models import Queue
'''
    assert unlisted_moto_names(source) == ["Queue"]
    partial = '''"""moto internals touched: moto.sqs.models.QueueList."""
from moto.sqs.models import Queue
'''
    assert unlisted_moto_names(partial) == ["Queue"]
