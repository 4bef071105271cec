"""One mutant: a single small change to one file of a solution, as a patch."""

from __future__ import annotations

import difflib
from dataclasses import dataclass


@dataclass(frozen=True)
class Edit:
    """Replace lines [start, end) (0-based) of a file's lines with `new` (a proposal)."""

    operator: str
    line: int  # 1-based line the id names
    description: str
    start: int
    end: int
    new: tuple[str, ...]
    tag: str = ""  # tells apart two edits of one operator at one line (e.g. two values)

    def apply(self, lines: list[str]) -> list[str]:
        """The file's lines with this edit made."""
        return [*lines[:self.start], *self.new, *lines[self.end:]]


@dataclass(frozen=True)
class Mutant:
    """A mutant: stable id (operator:file:line[:tag]), a one-line description, its patch."""

    id: str
    operator: str
    file: str
    line: int
    description: str
    patch: str

    def to_dict(self) -> dict[str, object]:
        """The mutant as mutate.json records it."""
        return {"id": self.id, "operator": self.operator, "file": self.file,
                "line": self.line, "description": self.description, "patch": self.patch}


def make(rel: str, old: str, edit: Edit) -> Mutant:
    """The mutant that `edit` makes of file `rel` (text `old`)."""
    lines = old.splitlines(keepends=True)
    new = "".join(edit.apply(lines))
    tag = f":{edit.tag}" if edit.tag else ""
    return Mutant(f"{edit.operator}:{rel}:{edit.line}{tag}", edit.operator, rel, edit.line,
                  edit.description, unified(rel, old, new))


def unified(rel: str, old: str, new: str) -> str:
    """A `git diff`-style patch of one file (a/ b/ prefixes), as variants' change.patch."""
    a, b = _lines(old), _lines(new)
    return "".join(difflib.unified_diff(a, b, f"a/{rel}", f"b/{rel}", n=3))


def _lines(text: str) -> list[str]:
    """Lines with ends; a last line without one gets git's marker so the patch applies."""
    lines = text.splitlines(keepends=True)
    if lines and not lines[-1].endswith("\n"):
        lines[-1] += "\n\\ No newline at end of file\n"
    return lines
