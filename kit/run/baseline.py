"""The base of `kit eval --baseline`: a directory as it is, or a git ref of the solution's
own repository checked out into a temporary worktree (`git worktree add --detach`), which
is removed afterwards whatever happens (an error, Ctrl-C, SIGTERM): no temp dir and no
worktree entry are left behind. Also where a solution sits in its repository and at which
commit, for the reproduce line of a report."""

from __future__ import annotations

import contextlib
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from kit import interrupt
from kit.errors import InputError

GIT_TIMEOUT = 120  # seconds: a checkout of a large repository, on a loaded CI machine


@dataclass(frozen=True)
class Source:
    """Where a solution is in its git repository: the top, the path in it, the commit."""

    top: Path
    path: str  # the solution's directory relative to `top` ("." for the top itself)
    commit: str
    dirty: bool  # the work tree differs from the commit (the run graded the changes too)


def _git(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    try:
        return subprocess.run(["git", "-C", str(cwd), *args], capture_output=True, text=True,
                              timeout=GIT_TIMEOUT, check=False)
    except FileNotFoundError:
        raise InputError("--baseline with a git ref needs git on PATH") from None
    except subprocess.TimeoutExpired:
        raise InputError(f"git {' '.join(args)} in {cwd} took over {GIT_TIMEOUT} s") from None


def source(solution: Path) -> Source | None:
    """The git repository holding `solution` and its commit (None outside any repository,
    or when git is missing)."""
    try:
        top = _git(solution, "rev-parse", "--show-toplevel")
        head = _git(solution, "rev-parse", "HEAD")
    except InputError:
        return None
    if top.returncode or head.returncode:
        return None
    root = Path(top.stdout.strip()).resolve()
    path = solution.resolve().relative_to(root).as_posix() or "."
    status = _git(root, "status", "--porcelain", "--", path)
    return Source(root, path, head.stdout.strip(), bool(status.stdout.strip()))


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
    solution's repository in a temporary worktree (removed on the way out)."""
    if Path(given).is_dir():
        src = source(Path(given))
        yield Base(Path(given), None, src.commit if src else None, given)
        return
    src = source(head_solution)
    if src is None:
        raise InputError(f"--baseline {given}: not a directory, and the solution "
                         f"{head_solution} is not in a git repository to find it as a ref")
    found = _git(src.top, "rev-parse", "--verify", "--quiet", f"{given}^{{commit}}")
    if found.returncode:
        raise InputError(f"--baseline {given}: neither a directory nor a commit of the "
                         f"repository {src.top} (for a branch of a CI checkout: fetch its "
                         "history, e.g. actions/checkout with fetch-depth: 0)")
    commit = found.stdout.strip()
    with _worktree(src.top, commit) as tree:
        yield Base(tree / src.path, given, commit, src.path)


@contextlib.contextmanager
def _worktree(top: Path, commit: str) -> Iterator[Path]:
    """A detached worktree of `commit` in a fresh temp dir, removed with it afterwards."""
    with interrupt.deferred():  # created and its removal registered, or neither
        holder = Path(tempfile.mkdtemp(prefix="kit-baseline-"))
        tree = holder / "base"
    try:
        added = _git(top, "worktree", "add", "--detach", str(tree), commit)
        if added.returncode:
            raise InputError(f"--baseline: git worktree add of {commit} in {top} failed: "
                             f"{added.stderr.strip()}")
        yield tree
    finally:
        with interrupt.deferred():
            _git(top, "worktree", "remove", "--force", str(tree))
            shutil.rmtree(holder, ignore_errors=True)
            _git(top, "worktree", "prune")
