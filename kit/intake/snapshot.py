"""The intake: a solution directory (an agent's workspace, a team's repository, a base
exported from git) taken once into a snapshot the kit owns; after it, the kit reads the
snapshot, never the original.

The kit runs as root, and the original is the solution's: any name in it may become a link
to a root-only file between a check and a read. So the kit does not read it at all. A
walker (kit/intake/walk.py) reads it in a sandbox (kit/sandbox/confine.py) as an
unprivileged user of its own (a workload user no other live process has), with the
original shown read-only and nothing else of the machine (no kit tree, no golden/, no
cache, no /root, no /etc): whatever a link points to or is swapped for, it reads nothing
that user could not read there. It streams the tree as tar; this process reads the stream
as data and makes every entry in a fresh directory of its own through kit/intake/files.py
(no component followed, no name taken twice), the walker's bounds checked again here.

What the snapshot holds: directories, regular files (mode 644, or 755 if executable) and
links as links (their target as written: the gate judges them on the snapshot's own paths,
kit/deploy/intake.py). Left out: `.git/` (read as data beforehand by kit/intake/git.py),
`.terraform/` and `__pycache__/` (what earlier runs left; the kit never reads them).
Refused, as the solution's fault (SolutionError naming the path): a special file, an entry
others may not read (a tree in a 0700 directory is refused whole: `chmod o+rX` fixes it),
a file that changed while it was read, a tree beyond MAX_ENTRIES, MAX_BYTES or MAX_DEPTH.

Why a tar stream: the standard library writes and reads it, the walker needs nothing
else (it runs under the worker runtime's interpreter with -I -S), and a pipe is the one
channel out of the sandbox: the walker writes nowhere.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path, PurePosixPath
from typing import IO

from kit.errors import InputError, SandboxError, SolutionError
from kit.intake import files, walk
from kit.sandbox import identity
from kit.sandbox.confine import Confinement
from kit.sandbox.limits import GiB, Limits, MiB
from kit.sandbox.support import support
from kit.sandbox.view import View

MAX_ENTRIES = 100_000
MAX_BYTES = 1 * GiB
MAX_DEPTH = 64
WALK_TIMEOUT = 300.0  # seconds: 100,000 entries from a cold disk on a loaded CI box
INSIDE = "/run/kit/intake"  # where the walker sees the original
WALKER = (Path(walk.__file__)).read_text()
# One Python process reading files (its user is its own: RLIMIT_NPROC counts only it); the
# bounds of the tree bound the rest.
WALKER_LIMITS = Limits(address_space=1 * GiB, processes=16, open_files=256,
                       file_size=1 * MiB, memory=512 * MiB, cpus=1.0, tmp_size=1 * MiB)


class Refused(SolutionError):
    """The intake does not take the tree: an entry (relative to it), and why."""

    def __init__(self, source: Path, path: str, why: str) -> None:
        super().__init__(f"{source / path}: not taken: {why}")
        self.inside = f"{path}: not taken: {why}"  # without the host's path (an agent's view)


@contextlib.contextmanager
def taken(source: Path) -> Iterator[Path]:
    """A snapshot of the directory `source` (removed on exit); Refused names what it
    does not take, InputError a source that is not a directory."""
    if not source.is_dir():
        raise InputError(f"solution directory {source} does not exist")
    top = Path(tempfile.mkdtemp(prefix="kit-intake-"))
    try:
        tree = top / "solution"
        tree.mkdir(mode=0o755)
        take(Path(os.path.realpath(source)), tree)
        yield tree
    finally:
        shutil.rmtree(top, ignore_errors=True)


def take(source: Path, tree: Path) -> None:
    """Fill the empty directory `tree` with the snapshot of `source`."""
    user = identity.workload()
    with contextlib.ExitStack() as stack:
        if user is not None:
            stack.callback(user.release)  # after the confinement: its processes are gone
        confinement = stack.enter_context(Confinement(
            "intake", View().place(source, INSIDE), WALKER_LIMITS, identity=user,
            network="none"))
        code, said, problem = _walked(confinement, source, tree)
    if code == walk.REFUSED:
        refusal = json.loads(said.splitlines()[-1])
        raise Refused(source, refusal["path"], refusal["why"])
    if problem:
        raise Refused(source, ".", problem)
    if code != 0:
        raise SandboxError(f"the intake's walker of {source} ended with {code}: "
                           f"{said.strip()[-2000:]}")


def _walked(confinement: Confinement, source: Path, tree: Path) -> tuple[int, str, str | None]:
    """Run the walker on `source` and make its stream in `tree`: its exit code, what it
    said, and why its stream was not taken (None: it was). Bounded by WALK_TIMEOUT."""
    bounds = {"entries": MAX_ENTRIES, "bytes": MAX_BYTES, "depth": MAX_DEPTH}
    where, python = ((INSIDE, support().python) if confinement.confined
                     else (str(source), sys.executable))
    proc = confinement.spawn([python or sys.executable, "-I", "-S", "-c", WALKER, where,
                              json.dumps(bounds)],
                             env={"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"},
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    watchdog = threading.Timer(WALK_TIMEOUT, proc.kill)
    watchdog.start()
    try:
        assert proc.popen.stdout is not None and proc.popen.stderr is not None
        problem = _extract(proc.popen.stdout, tree)
        if problem:
            proc.kill()  # it may be blocked writing the rest
        said = proc.popen.stderr.read(64 * 1024).decode(errors="replace")
        return proc.wait(timeout=30), said, problem
    finally:
        watchdog.cancel()
        if proc.poll() is None:
            proc.kill()


def _extract(stream: IO[bytes], tree: Path) -> str | None:
    """Create every entry of the walker's stream under `tree`; why the stream is not a
    tree the walker may write (None: it is). Nothing in it is trusted: each name is checked
    and made through kit/intake/files.py."""
    entries = size = 0
    try:
        with tarfile.open(fileobj=stream, mode="r|") as archive:
            for member in archive:
                entries, size = entries + 1, size + member.size
                if entries > MAX_ENTRIES or size > MAX_BYTES:
                    return f"more than {MAX_ENTRIES} entries or {MAX_BYTES} bytes"
                problem = _made(archive, member, tree)
                if problem:
                    return problem
    except tarfile.ReadError:
        return None  # no stream: the walker refused before its first entry, or failed
    return None


def _made(archive: tarfile.TarFile, member: tarfile.TarInfo, tree: Path) -> str | None:
    """Make one entry; why not, for a name or a kind the walker never writes."""
    name = PurePosixPath(member.name)
    if (name.is_absolute() or not name.parts or ".." in name.parts
            or any(part in walk.SKIPPED for part in name.parts)):
        return f"{member.name!r}: not a path inside the tree"
    try:
        if member.isdir():
            files.make_dirs(tree, name)
        elif member.isreg():
            handle = archive.extractfile(member)
            assert handle is not None
            files.create(tree, name, handle.read(), mode=0o755 if member.mode & 0o111 else 0o644)
        elif member.issym():
            files.link(tree, name, member.linkname)
        else:
            return f"{member.name}: a special file"
    except files.Taken:
        return f"{member.name}: twice in the stream"
    return None
