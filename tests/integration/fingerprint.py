"""A fingerprint of directory trees: to prove a run wrote nothing to them (no byte, mode or
entry changed)."""

from __future__ import annotations

import os
import stat
from pathlib import Path

# Written by the test process itself while it runs (bytecode, tool caches), not by a run.
OWN_WRITES = {"__pycache__", ".pytest_cache", ".ruff_cache"}


def fingerprint(*roots: Path) -> dict[str, str]:
    """path -> its mode, size, inode and change times (files), target (symlinks) or mode
    (directories)."""
    found: dict[str, str] = {}
    for root in roots:
        if root.is_file() or root.is_symlink():
            found[str(root)] = _entry(root)
            continue
        for base, dirs, files in os.walk(root):
            dirs[:] = [d for d in dirs if d not in OWN_WRITES]
            for name in [*dirs, *files]:
                path = Path(base, name)
                found[str(path)] = _entry(path)
    return found


def _entry(path: Path) -> str:
    info = path.lstat()
    if stat.S_ISLNK(info.st_mode):
        return f"link {os.readlink(path)}"
    if stat.S_ISDIR(info.st_mode):
        return f"dir {oct(info.st_mode)}"
    if not stat.S_ISREG(info.st_mode):
        return f"special {oct(info.st_mode)}"
    # No content hash (the trees hold 700 MB: 10 s a fingerprint, three a test): every write,
    # truncate, chmod or utime(2) sets the inode's ctime to the kernel's clock, which no
    # process can set back (only a change of the host's clock, outside any sandbox's reach).
    return (f"file {oct(info.st_mode)} size {info.st_size} inode {info.st_ino} "
            f"mtime {info.st_mtime_ns} ctime {info.st_ctime_ns}")


def changes(before: dict[str, str], after: dict[str, str]) -> list[str]:
    """What differs: added, removed or changed paths."""
    return sorted([f"added {p}" for p in after.keys() - before.keys()]
                  + [f"removed {p}" for p in before.keys() - after.keys()]
                  + [f"changed {p}" for p in before.keys() & after.keys()
                     if before[p] != after[p]])
