"""The walker of the intake (kit/intake/snapshot.py): it runs inside a sandbox, as an
unprivileged user, under the worker runtime's interpreter with the standard library only
(passed with -c: no file of the kit is shown), and writes the tree at argv[1] to stdout as
a tar stream of directories, regular files and links (a link's target as text, never
followed). Nothing is opened by a path of more than one component: each directory by its
parent's descriptor, with O_NOFOLLOW.

Left out at every level: SKIPPED. On a refusal (a special file, an entry its user may
not read, a file that changed while it was read, too many entries, bytes or levels) it
writes one JSON line {"path", "why"} to stderr and exits REFUSED; argv[2] holds the bounds
as JSON {"entries", "bytes", "depth"}.
"""

from __future__ import annotations

import errno
import json
import os
import stat
import sys
import tarfile

SKIPPED = frozenset({".git", ".terraform", "__pycache__"})
REFUSED = 3
_DIR = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
_FILE = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC


class Refusal(Exception):
    """An entry the intake does not take: (its path, why)."""


class Walk:
    """One walk's stream and the bounds it counts against."""

    def __init__(self, out: tarfile.TarFile, bounds: dict[str, int]) -> None:
        self.out = out
        self.bounds = bounds
        self.entries = 0
        self.bytes = 0

    def directory(self, fd: int, rel: str, depth: int) -> None:
        """Every entry of the directory open at `fd` (`rel` in the tree), sorted."""
        if depth > self.bounds["depth"]:
            raise Refusal(rel, f"deeper than {self.bounds['depth']} directories")
        for name in sorted(os.listdir(fd)):
            if name in SKIPPED:
                continue
            path = f"{rel}/{name}" if rel else name
            self.entries += 1
            if self.entries > self.bounds["entries"]:
                raise Refusal(path, f"more than {self.bounds['entries']} entries in the tree")
            self.entry(fd, name, path, depth)

    def entry(self, parent: int, name: str, path: str, depth: int) -> None:
        """One entry: a link as its text, a directory and its entries, a file's bytes."""
        mode = os.stat(name, dir_fd=parent, follow_symlinks=False).st_mode
        info = tarfile.TarInfo(path)
        info.mtime = 0  # the snapshot is the same for the same tree
        if stat.S_ISLNK(mode):
            info.type, info.linkname = tarfile.SYMTYPE, os.readlink(name, dir_fd=parent)
            self.out.addfile(info)
        elif stat.S_ISDIR(mode):
            fd = _open(name, _DIR, parent, path)
            try:
                info.type, info.mode = tarfile.DIRTYPE, 0o755
                self.out.addfile(info)
                self.directory(fd, path, depth + 1)
            finally:
                os.close(fd)
        elif stat.S_ISREG(mode):
            self.file(parent, name, path, info)
        else:
            raise Refusal(path, "a special file (a FIFO, a socket or a device): a solution "
                                "holds regular files, directories and links only")

    def file(self, parent: int, name: str, path: str, info: tarfile.TarInfo) -> None:
        """A regular file's bytes (re-checked on its descriptor: it may have been swapped)."""
        fd = _open(name, _FILE, parent, path)
        with os.fdopen(fd, "rb") as handle:
            found = os.fstat(fd)
            if not stat.S_ISREG(found.st_mode):
                raise Refusal(path, "it changed while the kit read it")
            self.bytes += found.st_size
            if self.bytes > self.bounds["bytes"]:
                raise Refusal(path, f"the tree holds more than {self.bounds['bytes']} bytes")
            info.size, info.mode = found.st_size, 0o755 if found.st_mode & 0o111 else 0o644
            try:
                self.out.addfile(info, handle)
            except OSError as exc:  # tarfile: the file ended before its size
                raise Refusal(path, f"it changed while the kit read it ({exc})") from None


def _open(name: str, flags: int, parent: int, path: str) -> int:
    try:
        return os.open(name, flags, dir_fd=parent)
    except PermissionError:
        raise Refusal(path, "the kit reads a solution as an unprivileged user, who may not "
                            "read this (make it readable by others: chmod o+rX)") from None
    except OSError as exc:
        if exc.errno in (errno.ELOOP, errno.ENOTDIR, errno.ENOENT):
            raise Refusal(path, "it changed while the kit read it") from None
        raise


def main(top: str, bounds: dict[str, int]) -> int:
    """Stream the tree at `top`; REFUSED (with the refusal on stderr) if it is not taken."""
    with tarfile.open(fileobj=sys.stdout.buffer, mode="w|", format=tarfile.PAX_FORMAT) as out:
        try:
            fd = _open(top, _DIR, -100, ".")  # AT_FDCWD: `top` is the sandbox's own path
            try:
                Walk(out, bounds).directory(fd, "", 0)
            finally:
                os.close(fd)
        except Refusal as refusal:
            path, why = refusal.args
            sys.stderr.write(json.dumps({"path": path, "why": why}) + "\n")
            return REFUSED
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], json.loads(sys.argv[2])))
