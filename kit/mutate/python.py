"""Mutation operators on worker code (Python AST): each exception handler's body replaced
by `raise`; each retry (a `continue` in a handler inside a loop) replaced by `raise`; each
backoff (a `sleep`/`wait` call in a handler) removed; a delete placed after a commit moved
before it (two sibling statements, the later deleting a message, the earlier committing,
where the delete does not read what the commit assigned)."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from kit.mutate.mutant import Edit

BACKOFFS = {"sleep", "wait"}
COMMITS = {"commit", "record", "insert", "execute", "put_item", "save", "write", "store"}
DELETES = {"delete_message", "delete_message_batch", "delete", "ack"}


def edits(text: str) -> Iterator[Edit]:
    """Every edit the worker-code operators propose for one module's text."""
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return
    lines = text.splitlines(keepends=True)
    for node in ast.walk(tree):
        if isinstance(node, ast.ExceptHandler):
            yield _handler_raise(lines, node)
            yield from _backoffs(lines, node)
        if isinstance(node, (ast.For, ast.While)):
            yield from _retries(lines, node)
        for body in _bodies(node):
            yield from _delete_first(lines, body)


def _indent(line: str) -> str:
    return line[:len(line) - len(line.lstrip())]


def _handler_raise(lines: list[str], node: ast.ExceptHandler) -> Edit:
    """The handler's body becomes `raise`: the error it handled propagates."""
    first, last = node.body[0], node.body[-1]
    what = ast.unparse(node.type) if node.type else "every exception"
    assert last.end_lineno is not None
    return Edit("py.handler-raise", node.lineno, f"the handler of {what} at line "
                f"{node.lineno} re-raises instead", first.lineno - 1, last.end_lineno,
                (f"{_indent(lines[first.lineno - 1])}raise\n",))


def _backoffs(lines: list[str], node: ast.ExceptHandler) -> Iterator[Edit]:
    """Each backoff in a handler goes: a statement removed, or the call in a test False."""
    for call in ast.walk(node):
        if not (isinstance(call, ast.Call) and _name(call.func) in BACKOFFS):
            continue
        stmt = _statement_of(node, call)
        if isinstance(stmt, ast.Expr) and stmt.value is call:
            new = f"{_indent(lines[stmt.lineno - 1])}pass\n"
        elif call.lineno == call.end_lineno and call.end_col_offset is not None:
            line = lines[call.lineno - 1]
            new = line[:call.col_offset] + "False" + line[call.end_col_offset:]
        else:
            continue
        yield Edit("py.no-backoff", call.lineno, f"no backoff: {ast.unparse(call)} at line "
                   f"{call.lineno} removed", call.lineno - 1, call.lineno, (new,))


def _retries(lines: list[str], loop: ast.For | ast.While) -> Iterator[Edit]:
    """Each `continue` of a handler directly in this loop becomes `raise`: no retry."""
    for stmt in loop.body:
        if not isinstance(stmt, ast.Try):
            continue
        for handler in stmt.handlers:
            for node in ast.walk(handler):
                if isinstance(node, ast.Continue):
                    line = lines[node.lineno - 1]
                    yield Edit("py.no-retry", node.lineno, f"no retry: the continue at line "
                               f"{node.lineno} re-raises instead", node.lineno - 1,
                               node.lineno, (line.replace("continue", "raise", 1),))


def _bodies(node: ast.AST) -> Iterator[list[ast.stmt]]:
    for name in ("body", "orelse", "finalbody"):
        body = getattr(node, name, None)
        if isinstance(body, list) and body and isinstance(body[0], ast.stmt):
            yield body


def _delete_first(lines: list[str], body: list[ast.stmt]) -> Iterator[Edit]:
    """Swap a commit and a later sibling delete when the delete does not need its result."""
    for k, first in enumerate(body):
        if not _calls(first, COMMITS):
            continue
        assigned = {n.id for n in ast.walk(first)
                    if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
        for later in body[k + 1:]:
            read = {n.id for n in ast.walk(later) if isinstance(n, ast.Name)}
            if read & assigned:
                break
            if _calls(later, DELETES) and not _calls(later, COMMITS):
                assert first.end_lineno is not None and later.end_lineno is not None
                a = lines[first.lineno - 1:first.end_lineno]
                b = lines[later.lineno - 1:later.end_lineno]
                between = lines[first.end_lineno:later.lineno - 1]
                yield Edit("py.delete-before-commit", later.lineno, f"the delete at line "
                           f"{later.lineno} runs before the commit at line {first.lineno}",
                           first.lineno - 1, later.end_lineno, (*b, *between, *a))
                break


def _calls(stmt: ast.stmt, names: set[str]) -> bool:
    return any(isinstance(n, ast.Call) and _name(n.func) in names for n in ast.walk(stmt))


def _name(func: ast.expr) -> str:
    if isinstance(func, ast.Attribute):
        return func.attr
    return func.id if isinstance(func, ast.Name) else ""


def _statement_of(root: ast.AST, target: ast.AST) -> ast.stmt | None:
    """The innermost statement under `root` that holds `target`."""
    found = None
    for node in ast.walk(root):
        if isinstance(node, ast.stmt) and any(n is target for n in ast.walk(node)) \
                and (found is None or node.lineno >= found.lineno):
            found = node
    return found
