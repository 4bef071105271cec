"""The base of `kit eval --baseline`: a directory as it is, or a git ref of the solution's
own repository exported into a temporary directory (kit/intake/git.py `export`: read as
data, no checkout, so none of the repository's hooks, filters or config runs), which is
removed afterwards whatever happens (an error, Ctrl-C, SIGTERM). Also where a solution sits
in its repository and at which commit, for the reproduce line of a report: read from
`.git/` as files, never by running git with the solution's own configuration."""

from __future__ import annotations

import contextlib
import shutil
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from kit import interrupt
from kit.errors import InputError, SolutionError
from kit.intake import git


@dataclass(frozen=True)
class Source:
    """Where a solution is in its git repository: the top, the path in it, the commit."""

    top: Path
    path: str  # the solution's directory relative to `top` ("." for the top itself)
    commit: str
    # The work tree differs from the commit (the run graded the changes too); None: not
    # judged (git on a private GIT_DIR could not tell, see kit/intake/git.py).
    dirty: bool | None


def source(solution: Path) -> Source | None:
    """The git repository holding `solution` and its commit, read as data (None outside
    any repository, on an unborn branch, or for a `.git` not read as data)."""
    repo = git.find(solution)
    commit = git.head(repo) if repo is not None else None
    if repo is None or commit is None:
        return None
    path = Path(solution).resolve().relative_to(repo.top).as_posix() or "."
    return Source(repo.top, path, commit, git.dirty(repo, commit, path))


def relative(path: Path, src: Source | None) -> str:
    """`path` relative to the repository's top when it is inside it, else as given."""
    if src is not None and path.resolve().is_relative_to(src.top):
        return path.resolve().relative_to(src.top).as_posix() or "."
    return str(path)


@dataclass(frozen=True)
class Base:
    """The base side: its solution directory, and the ref and commit it came from."""

    solution: Path
    ref: str | None = None  # the git ref given (None: a directory)
    commit: str | None = None
    shown: str = ""  # how a report names it: a ref's path in the repository, else the dir


@contextlib.contextmanager
def checkout(given: str, head_solution: Path) -> Iterator[Base]:
    """The base named by --baseline: an existing directory, else a git ref of the head
    solution's repository exported into a temporary directory (removed on the way out)."""
    if Path(given).is_dir():
        src = source(Path(given))
        yield Base(Path(given), None, src.commit if src else None, given)
        return
    src = source(head_solution)
    repo = git.find(head_solution)
    if src is None or repo is None:
        raise InputError(f"--baseline {given}: not a directory, and the solution "
                         f"{head_solution} is not in a git repository to find it as a ref")
    try:
        commit = git.verify(repo, given)
    except git.Unreadable as exc:
        raise InputError(f"--baseline {given}: the repository {src.top} cannot be read "
                         f"as data ({exc})") from None
    if commit is None:
        raise InputError(f"--baseline {given}: neither a directory nor a commit of the "
                         f"repository {src.top} (for a branch of a CI checkout: fetch its "
                         "history, e.g. actions/checkout with fetch-depth: 0)")
    with _exported(repo, commit) as tree:
        yield Base(tree / src.path, given, commit, src.path)


@contextlib.contextmanager
def _exported(repo: git.Repository, commit: str) -> Iterator[Path]:
    """`commit`'s tree written into a fresh temp dir, removed with it afterwards."""
    with interrupt.deferred():  # created and its removal registered, or neither
        holder = Path(tempfile.mkdtemp(prefix="kit-baseline-"))
        tree = holder / "base"
    try:
        tree.mkdir()
        try:
            git.export(repo, commit, tree)
        except (git.Unreadable, SolutionError) as exc:
            raise InputError(f"--baseline: the tree of {commit} in {repo.top} was not "
                             f"exported: {exc}") from None
        yield tree
    finally:
        with interrupt.deferred():
            shutil.rmtree(holder, ignore_errors=True)
