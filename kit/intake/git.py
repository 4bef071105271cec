"""A solution's git repository read as data: git never runs with the repository's own config.

The kit runs as root and grades a directory the solution controls, its `.git/` included:
`git status` there reads `.git/config`, whose `core.fsmonitor` (like hooks, filters and
`includeIf`) is a command git runs. So:
- the commit is read from files: `HEAD`, then the loose ref it names or `packed-refs`,
  each opened without following a link (kit/intake/files.py). A `.git` *file* (a worktree's
  or a submodule's `gitdir: <dir>`) is taken only when `<dir>` points back at it (git's own
  two-way link of a worktree); otherwise, or for a `.git` that is a link, there is no
  repository (None). As git's own discovery, the search stops at a filesystem's boundary
  and at a repository another user owns (git's safe.directory check);
- `dirty`, a ref's expression (`main~1`) and the export of a ref (`--baseline <ref>`) run
  git on a private GIT_DIR the kit writes: an empty config (no system or global one either,
  `-c` overrides for every key that executes), HEAD and the refs as read above, a copy of
  the index, and the solution's object store as an alternate (objects are data: git runs
  nothing to read them). A repository whose object store is a link or names alternates of
  its own has no `dirty` (None) and no export of a ref.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import stat
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from kit.intake import files

GIT_TIMEOUT = 120  # seconds: a status or an export of a large repository, on a loaded CI box
MAX_SMALL = 4096  # HEAD, a loose ref, a `.git` file, a worktree's back-pointer
MAX_PACKED_REFS = 64 << 20
MAX_INDEX = 256 << 20
MAX_REFS = 100_000
MAX_EXPORT_FILES = 100_000  # a ref's tree: more is not a solution (bounded like the intake)
MAX_EXPORT_BYTES = 1 << 30
HEX = re.compile(r"[0-9a-f]{40}(?:[0-9a-f]{24})?")
# A ref name as git allows it (git-check-ref-format), narrowed to what is written as a path:
# no component starting with a dot (`..`, `.git`), none ending in `.lock`.
_COMPONENT = r"(?!\.)[A-Za-z0-9._+@%=-]+(?<!\.lock)"
REFNAME = re.compile(rf"refs/(?:{_COMPONENT}/)*{_COMPONENT}")
# Every key of a repository's config that names a command git may run, set off here too
# (the private config is empty already: this holds if git ever reads another file).
SAFE_CONFIG = ("core.fsmonitor=false", "core.hooksPath=/dev/null", "core.sshCommand=",
               "core.pager=cat", "core.untrackedCache=false", "core.attributesFile=/dev/null",
               "core.alternateRefsCommand=", "diff.external=", "submodule.recurse=false",
               "status.submoduleSummary=false", "protocol.allow=never",
               "uploadpack.packObjectsHook=")


class Unreadable(Exception):
    """The repository cannot be read as data safely (say why): no dirty, no export."""


@dataclass(frozen=True)
class Repository:
    """A work tree's top, its git dir (HEAD, index) and its common dir (refs, objects)."""

    top: Path
    gitdir: Path
    common: Path


def find(start: Path) -> Repository | None:
    """The repository holding `start` (its nearest `.git`), or None: none, or one that is a
    link or a `.git` file not confirmed by the directory it names."""
    here = Path(os.path.realpath(start))
    device = os.stat(here).st_dev
    for top in [here, *here.parents]:
        if os.stat(top).st_dev != device:
            return None  # as git's discovery: it stops at a filesystem's boundary
        dot = top / ".git"
        try:
            info = os.lstat(dot)
        except FileNotFoundError:
            continue
        except OSError:
            return None
        if info.st_uid != os.geteuid() or os.stat(top).st_uid != os.geteuid():
            return None  # as git's safe.directory check: another user's repository
        if stat.S_ISDIR(info.st_mode):
            return Repository(top, dot, dot)
        return _linked(top, dot) if stat.S_ISREG(info.st_mode) else None
    return None


def _linked(top: Path, dot: Path) -> Repository | None:
    """The worktree a `.git` file names, when that worktree's `gitdir` names this file."""
    text = _text(top, ".git")
    if text is None or not text.startswith("gitdir: "):
        return None
    gitdir = Path(os.path.realpath(top / text.removeprefix("gitdir: ")))
    back, common = _text(gitdir, "gitdir"), _text(gitdir, "commondir")
    if back is None or common is None or not gitdir.is_dir():
        return None  # a submodule's `.git` file, or a forged one: not read
    if Path(os.path.realpath(gitdir / back)) != dot:
        return None
    return Repository(top, gitdir, Path(os.path.realpath(gitdir / common)))


def _text(root: Path, relative: str, limit: int = MAX_SMALL) -> str | None:
    """A small regular file's first line (a link or anything else: None)."""
    data = files.read_regular(root, relative, limit)
    if data is None:
        return None
    lines = data.decode("utf-8", errors="replace").splitlines()
    return lines[0].strip() if lines else ""


def head(repo: Repository) -> str | None:
    """The commit HEAD names (None: an unborn branch, or HEAD not read as data)."""
    return resolve(repo, "HEAD")


def resolve(repo: Repository, name: str) -> str | None:
    """The commit a ref name holds, following symbolic refs (five at most, as data)."""
    for _ in range(5):
        if name != "HEAD" and not REFNAME.fullmatch(name):
            return None
        value = _text(repo.gitdir if name == "HEAD" else repo.common, name)
        if value is None:
            return packed_refs(repo).get(name)
        if HEX.fullmatch(value):
            return value
        if not value.startswith("ref: "):
            return None
        name = value.removeprefix("ref: ")
    return None


def packed_refs(repo: Repository) -> dict[str, str]:
    """`packed-refs` as {name: commit} (its peeled `^` lines and bad lines skipped)."""
    data = files.read_regular(repo.common, "packed-refs", MAX_PACKED_REFS) or b""
    found: dict[str, str] = {}
    for line in data.decode("utf-8", errors="replace").splitlines():
        value, _, name = line.partition(" ")
        if HEX.fullmatch(value) and REFNAME.fullmatch(name):
            found[name] = value
    return found


def refs(repo: Repository) -> dict[str, str]:
    """Every ref as {name: commit}: `packed-refs`, then the loose refs over them (links under
    refs/ are not followed)."""
    found = packed_refs(repo)
    base = repo.common / "refs"
    try:
        mode = os.lstat(base).st_mode
    except OSError:
        mode = 0
    if not stat.S_ISDIR(mode):  # os.walk would follow a link at the top
        raise Unreadable(f"{base} is not a directory")
    for here, dirs, names in os.walk(base, followlinks=False):
        dirs.sort()
        for name in sorted(names):
            ref = (Path(here) / name).relative_to(repo.common).as_posix()
            commit = resolve(repo, ref)
            if commit is not None:
                found[ref] = commit
            if len(found) > MAX_REFS:
                raise Unreadable(f"more than {MAX_REFS} refs")
    return found


@contextlib.contextmanager
def private(repo: Repository, commit: str) -> Iterator[Path]:
    """A GIT_DIR of the kit's own for `repo` (see the module's docstring), removed after."""
    objects = repo.common / "objects"
    try:
        mode = os.lstat(objects).st_mode
    except OSError as exc:
        raise Unreadable(f"{objects}: {exc.strerror}") from None
    if not stat.S_ISDIR(mode):
        raise Unreadable(f"{objects} is not a directory")
    if os.path.lexists(objects / "info" / "alternates"):
        raise Unreadable(f"{objects} names alternates of its own")
    holder = Path(tempfile.mkdtemp(prefix="kit-git-"))
    try:
        gitdir = holder / "git"
        fmt = "" if len(commit) == 40 else "[extensions]\n\tobjectFormat = sha256\n"
        version = 0 if not fmt else 1
        files.create(holder, "git/config", f"[core]\n\trepositoryformatversion = {version}\n"
                     f"\tbare = false\n{fmt}")
        files.create(holder, "git/HEAD", f"{commit}\n")
        files.create(holder, "git/objects/info/alternates", f"{os.path.realpath(objects)}\n")
        files.make_dirs(holder, "git/refs")
        files.create(holder, "git/packed-refs",
                     "".join(f"{c} {n}\n" for n, c in sorted(refs(repo).items())))
        for name, root, limit in (("index", repo.gitdir, MAX_INDEX),
                                  ("shallow", repo.common, MAX_PACKED_REFS)):
            data = files.read_regular(root, name, limit)
            if data is not None:
                files.create(gitdir, name, data)
        yield gitdir
    finally:
        shutil.rmtree(holder, ignore_errors=True)


def _env(gitdir: Path, work_tree: Path | None) -> dict[str, str]:
    """An environment naming only the private GIT_DIR: nothing of the host's git settings."""
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(gitdir),
           "LC_ALL": "C", "GIT_DIR": str(gitdir), "GIT_CONFIG_NOSYSTEM": "1",
           "GIT_CONFIG_GLOBAL": os.devnull, "GIT_ATTR_NOSYSTEM": "1",
           "GIT_TERMINAL_PROMPT": "0", "GIT_NO_REPLACE_OBJECTS": "1",
           "GIT_OPTIONAL_LOCKS": "0"}
    if work_tree is not None:
        env["GIT_WORK_TREE"] = str(work_tree)
    return env


def command(gitdir: Path, *args: str) -> list[str]:
    """The argv of a git command on a private GIT_DIR, every executing key set off."""
    return ["git", *[a for kv in SAFE_CONFIG for a in ("-c", kv)], *args]


def run(gitdir: Path, *args: str, work_tree: Path | None = None
        ) -> subprocess.CompletedProcess[str]:
    """git `args` on a private GIT_DIR (in `work_tree` when given); Unreadable when git is
    missing or too slow."""
    try:
        return subprocess.run(command(gitdir, *args), cwd=work_tree or gitdir,
                              env=_env(gitdir, work_tree), capture_output=True, text=True,
                              errors="surrogateescape",  # a path need not be UTF-8
                              timeout=GIT_TIMEOUT, check=False, stdin=subprocess.DEVNULL)
    except FileNotFoundError:
        raise Unreadable("git is not on PATH") from None
    except subprocess.TimeoutExpired:
        raise Unreadable(f"git {args[0]} took over {GIT_TIMEOUT} s") from None


def dirty(repo: Repository, commit: str, path: str = ".") -> bool | None:
    """Whether the work tree under `path` differs from `commit` (untracked files count),
    judged by git on a private GIT_DIR; None when it cannot be judged that way."""
    try:
        with private(repo, commit) as gitdir:
            # Submodules ignored: git would run `git status` inside each, with its config.
            done = run(gitdir, "status", "--porcelain", "--ignore-submodules=all", "--",
                       path, work_tree=repo.top)
    except (Unreadable, OSError):
        return None
    return None if done.returncode else bool(done.stdout.strip())


def verify(repo: Repository, given: str) -> str | None:
    """The commit a ref expression (`main`, `v1`, `HEAD~1`, a hash) names, or None."""
    base = head(repo)
    if given.startswith("-") or base is None and not HEX.fullmatch(given):
        return None
    with private(repo, base or given) as gitdir:
        found = run(gitdir, "rev-parse", "--verify", "--quiet", f"{given}^{{commit}}")
    commit = found.stdout.strip()
    return commit if not found.returncode and HEX.fullmatch(commit) else None


@dataclass(frozen=True)
class Entry:
    """One entry of a tree listing: its mode, object and path."""

    mode: str
    object: str
    path: str


def export(repo: Repository, commit: str, into: Path) -> list[str]:
    """Write `commit`'s tree into the empty directory `into` without a checkout (no hooks,
    no filters, no attributes: git 2.39's `git archive` would apply export-subst and
    export-ignore from the tree): files 644 or 755, links as links (made last, so no file
    is written through one; the gate judges them as it judges a solution's), a submodule as
    an empty directory. Returns what was left out and why; Unreadable when it cannot."""
    with private(repo, commit) as gitdir:
        entries = _listing(gitdir, commit)
        skipped: list[str] = []
        links: list[tuple[Entry, bytes]] = []
        for entry, data in _blobs(gitdir, entries):
            if entry.mode == "120000":
                links.append((entry, data))
            else:
                files.create(into, entry.path, data,
                             mode=0o755 if entry.mode == "100755" else 0o644)
        for entry in entries:
            if entry.mode == "160000":
                files.make_dirs(into, entry.path)
                skipped.append(f"{entry.path}: a submodule (left empty, as a checkout does)")
        for entry, target in links:
            where = PurePosixPath(entry.path)
            with files.directory(into, where.parent, create=True) as parent:
                os.symlink(os.fsdecode(target), where.name, dir_fd=parent)
    return skipped


def _listing(gitdir: Path, commit: str) -> list[Entry]:
    """The tree of `commit`, every path checked (Unreadable for one git would not check out)."""
    done = run(gitdir, "ls-tree", "-r", "-z", "--full-tree", commit)
    if done.returncode:
        raise Unreadable(f"git ls-tree {commit}: {done.stderr.strip()}")
    entries = []
    for row in filter(None, done.stdout.split("\0")):
        meta, _, path = row.partition("\t")
        mode, _, rest = meta.partition(" ")
        _, _, obj = rest.partition(" ")
        parts = path.split("/")
        if any(p in ("", ".", "..") or p.lower() == ".git" for p in parts):
            raise Unreadable(f"the tree of {commit} holds the path {path!r}, which git "
                             "itself refuses to check out")
        if mode not in ("100644", "100664", "100755", "120000", "160000"):
            raise Unreadable(f"the tree of {commit} holds {path!r} of unknown mode {mode}")
        entries.append(Entry(mode, obj, path))
    if len(entries) > MAX_EXPORT_FILES:
        raise Unreadable(f"the tree of {commit} holds over {MAX_EXPORT_FILES} files")
    return entries


def _blobs(gitdir: Path, entries: list[Entry]) -> Iterator[tuple[Entry, bytes]]:
    """Each blob entry with its content, read by one `git cat-file --batch`, one at a time
    (no pipe fills while the other side waits)."""
    blobs = [e for e in entries if e.mode != "160000"]
    proc = subprocess.Popen(command(gitdir, "cat-file", "--batch"), cwd=gitdir,
                            env=_env(gitdir, None), stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    ask, answer = proc.stdin, proc.stdout
    if ask is None or answer is None:
        raise Unreadable("git cat-file started without pipes")
    total = 0
    try:
        for entry in blobs:
            ask.write(f"{entry.object}\n".encode())
            ask.flush()
            header = answer.readline().split()
            if len(header) != 3 or header[1] != b"blob":
                raise Unreadable(f"{entry.path}: object {entry.object} is not a blob")
            total += int(header[2])
            if total > MAX_EXPORT_BYTES:
                raise Unreadable(f"the tree holds over {MAX_EXPORT_BYTES >> 20} MB")
            data = answer.read(int(header[2]) + 1)[:-1]
            yield entry, data
    finally:
        ask.close()
        proc.kill()
        proc.wait()
