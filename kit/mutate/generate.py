"""Every single mutant of a solution: the operators' edits of its Terraform (terraform.py)
and worker code (python.py), kept only when the result still parses and differs from the
original once parsed (a broken or an identical mutant proves nothing)."""

from __future__ import annotations

import ast
import os
import stat
from collections.abc import Iterator
from pathlib import Path

from kit.deploy import hcl
from kit.intake import files
from kit.mutate import python, terraform
from kit.mutate.mutant import Edit, Mutant, make

MAX_FILE = 4 << 20  # a source file to mutate: larger is no hand-written Terraform or worker


def mutants(solution: Path) -> list[Mutant]:
    """The mutants of the solution, in file then line order, each id once."""
    found: dict[str, Mutant] = {}
    for rel in sorted(_files(solution)):
        # Read without following a link on the way (kit/intake/files.py): root reads it.
        data = files.read_regular(solution, rel, MAX_FILE)
        if data is None:
            continue
        text = data.decode()
        path = solution / rel
        for edit in _edits(path, text):
            new = "".join(edit.apply(text.splitlines(keepends=True)))
            if _meaningful(path, text, new):
                mutant = make(rel, text, edit)
                found.setdefault(mutant.id, mutant)
    return sorted(found.values(), key=lambda m: (m.file, m.line, m.id))


def _files(solution: Path) -> Iterator[str]:
    """The solution's Terraform and Python files (relative, POSIX), minus what a run never
    copies: regular files only, no directory reached through a link (a link is the gate's
    to judge, never a mutant's source: root would read what it points at)."""
    for here, dirs, names in os.walk(solution, followlinks=False):
        dirs[:] = sorted(d for d in dirs if not hcl.not_copied(d))
        for name in names:
            path = Path(here) / name
            if path.suffix in (".tf", ".py") and not hcl.not_copied(name) \
                    and stat.S_ISREG(os.lstat(path).st_mode):
                yield path.relative_to(solution).as_posix()


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
