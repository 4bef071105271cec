"""Files the kit creates or reads under a directory a solution controls, never through a link.

The kit runs as root; a run's copy of a solution is the solution's tree, so any name in it
may already be a link the solution made (dangling, absolute, or climbing out). `Path.exists()`
is false for a dangling link and `write_text` follows it: root would write where the link
points. Here every component is opened with O_NOFOLLOW relative to its parent's descriptor
(no path is resolved twice), and a file is created with O_CREAT|O_EXCL: a name already
taken, by a link or by a file, is the solution's fault (`SolutionError`, outcome `fail`),
naming the path, never the kit's `error`.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from collections.abc import Iterator
from pathlib import Path, PurePath

from kit.errors import SolutionError

_DIR = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
_TAKEN = (errno.EEXIST, errno.ELOOP, errno.ENOTDIR)  # a link or a file holds the name


class Taken(SolutionError):
    """A name the kit writes in a solution's copy is already a link or a file there."""


def _parts(relative: str | PurePath) -> list[str]:
    """The components of a relative path; ValueError for one that could climb out."""
    parts = [p for p in PurePath(relative).parts if p != "."]
    if PurePath(relative).is_absolute() or ".." in parts:
        raise ValueError(f"{relative}: not a path inside the directory")
    return parts


def _parent(parts: list[str]) -> PurePath:
    """The directory holding the last of `parts` (the top itself for a single name)."""
    return PurePath(*parts[:-1])


def _kind(root: Path, relative: str) -> str:
    """What holds a name (for the message): a link and its target, a directory, a file."""
    where = root / relative
    try:
        mode = os.lstat(where).st_mode
    except OSError:
        return "an entry"
    if stat.S_ISLNK(mode):
        return f"a symbolic link (to {os.readlink(where)})"
    return "a directory" if stat.S_ISDIR(mode) else "a file"


def _taken(root: Path, relative: str, why: str) -> Taken:
    return Taken(f"{relative}: this name is reserved for the kit ({why}), and the solution "
                 f"has {_kind(root, relative)} there: remove it from the solution")


@contextlib.contextmanager
def directory(root: Path, relative: str | PurePath = ".", *, create: bool = False,
              why: str = "a kit file") -> Iterator[int]:
    """A descriptor of `root`/`relative`, each component opened without following a link
    (created, mode 755, when `create`); `Taken` when one is a link or a file."""
    parts = _parts(relative)
    try:
        fd = os.open(root, _DIR)
    except OSError as exc:
        if exc.errno in _TAKEN:  # the root itself: a link in the copy (a root module's)
            raise _taken(root.parent, root.name, why) from None
        raise
    try:
        for i, name in enumerate(parts):
            if create:
                with contextlib.suppress(FileExistsError):
                    os.mkdir(name, 0o755, dir_fd=fd)
            try:
                child = os.open(name, _DIR, dir_fd=fd)
            except OSError as exc:
                if exc.errno in _TAKEN:
                    raise _taken(root, "/".join(parts[:i + 1]), why) from None
                raise
            os.close(fd)
            fd = child
        yield fd
    finally:
        os.close(fd)


def make_dirs(root: Path, relative: str | PurePath, *, why: str = "a kit directory") -> Path:
    """Create `root`/`relative` and its parents (existing real directories are kept)."""
    with directory(root, relative, create=True, why=why):
        return root.joinpath(*_parts(relative))


def create(root: Path, relative: str | PurePath, data: bytes | str, *, mode: int = 0o644,
           why: str = "a kit file") -> Path:
    """Write a new file at `root`/`relative` (parents created); `Taken` naming the path when
    the name, or a directory on the way, is already a link or a file of the solution."""
    parts = _parts(relative)
    if not parts:
        raise ValueError("create needs a file name")
    body = data.encode() if isinstance(data, str) else data
    with directory(root, _parent(parts), create=True,
                   why=why) as parent:
        try:
            fd = os.open(parts[-1], os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW
                         | os.O_CLOEXEC, mode, dir_fd=parent)
        except OSError as exc:
            if exc.errno in _TAKEN:
                raise _taken(root, "/".join(parts), why) from None
            raise
        with os.fdopen(fd, "wb") as handle:
            os.fchmod(handle.fileno(), mode)  # the mode asked for, not the umask's
            handle.write(body)
    return root.joinpath(*parts)


def replace(root: Path, relative: str | PurePath, data: bytes | str, *,
            why: str = "a file") -> Path:
    """Write `data` as the whole content of the regular file at `root`/`relative`, made
    (mode 644, parents created) when missing; `Taken` when the name, or a directory on the
    way, is a link, or the name is not a regular file."""
    parts = _parts(relative)
    if not parts:
        raise ValueError("replace needs a file name")
    body = data.encode() if isinstance(data, str) else data
    with directory(root, _parent(parts), create=True,
                   why=why) as parent:
        try:
            fd = os.open(parts[-1], os.O_WRONLY | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK
                         | os.O_CLOEXEC, 0o644, dir_fd=parent)
        except OSError as exc:
            if exc.errno in (*_TAKEN, errno.EISDIR, errno.ENXIO):  # ENXIO: a FIFO
                raise _taken(root, "/".join(parts), why) from None
            raise
        with os.fdopen(fd, "wb") as handle:
            if not stat.S_ISREG(os.fstat(fd).st_mode):  # a FIFO opens for writing too
                raise _taken(root, "/".join(parts), why)
            handle.truncate(0)
            handle.write(body)
    return root.joinpath(*parts)


def remove(root: Path, relative: str | PurePath) -> bool:
    """Unlink the regular file at `root`/`relative` (no link followed on the way); False
    when there is none there."""
    parts = _parts(relative)
    if not parts:
        return False
    try:
        with directory(root, _parent(parts)) as parent:
            if not stat.S_ISREG(os.stat(parts[-1], dir_fd=parent,
                                        follow_symlinks=False).st_mode):
                return False
            os.unlink(parts[-1], dir_fd=parent)
    except (OSError, SolutionError):
        return False
    return True


def link(root: Path, relative: str | PurePath, target: str) -> Path:
    """Make a new symbolic link at `root`/`relative` to `target` (as written; parents
    created); `Taken` when the name is already a link or a file."""
    parts = _parts(relative)
    if not parts:
        raise ValueError("link needs a name")
    with directory(root, _parent(parts), create=True) as parent:
        try:
            os.symlink(target, parts[-1], dir_fd=parent)
        except OSError as exc:
            if exc.errno in _TAKEN:
                raise _taken(root, "/".join(parts), "a link") from None
            raise
    return root.joinpath(*parts)


def read_regular(root: Path, relative: str | PurePath, limit: int) -> bytes | None:
    """The content of a regular file at `root`/`relative`, read without following a link
    on the way; None when it is missing, a link, not a regular file, or over `limit`."""
    parts = _parts(relative)
    if not parts:
        return None
    try:
        with directory(root, _parent(parts)) as parent:
            # O_NONBLOCK: a FIFO at the name must not hang the kit.
            fd = os.open(parts[-1], os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK
                         | os.O_CLOEXEC, dir_fd=parent)
    except (OSError, SolutionError):
        return None
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode) or info.st_size > limit:  # a directory opens too
        os.close(fd)
        return None
    with os.fdopen(fd, "rb") as handle:
        data = handle.read(limit + 1)
    return data if len(data) <= limit else None
