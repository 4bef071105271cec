"""Unprivileged users for confined processes: a uid and gid of their own, no supplementary
groups, never a user of the machine (/etc/passwd).

Terraform and the providers run as one fixed deploy user (they share the provider's socket,
and run only the kit's binaries). Each sandbox's workload (the solution's workers) gets a
user of its own, held with a lock for as long as the sandbox lives: RLIMIT_NPROC counts per
user, so a fork bomb in one run cannot starve another run's workers or the deploy user.
Only root can switch users; elsewhere `workload()` returns None and confined processes keep
the kit's uid (inside a user namespace).
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import pwd
import stat
from dataclasses import dataclass, field
from pathlib import Path

from kit.errors import SandboxError

# Far above the ranges distributions hand out (system < 1000, users < 60000, subordinate
# ranges from 100000 in steps of 65536) and below 2^31 (some tools read uids as signed).
BASE_UID = 1_900_000_000
SLOTS = 4096
DEPLOY_UID = BASE_UID
LOCK_DIR = Path("/run/kit-uids")


@dataclass
class Identity:
    """A uid/gid pair (gid = uid, no supplementary groups); `release` frees a held one."""

    uid: int
    lock_fd: int | None = field(default=None, repr=False)

    @property
    def gid(self) -> int:
        return self.uid

    def release(self) -> None:
        """Let another sandbox take this user (its processes must be gone)."""
        if self.lock_fd is not None:
            os.close(self.lock_fd)  # closing drops the flock
            self.lock_fd = None


def can_switch() -> bool:
    """Whether the kit may run processes as other users (it is root)."""
    return os.geteuid() == 0


def deploy() -> Identity | None:
    """The user Terraform and the providers run as; None when the kit cannot switch users."""
    return Identity(DEPLOY_UID) if can_switch() else None


def workload() -> Identity | None:
    """A workload user no other live sandbox holds; None when the kit cannot switch users."""
    if not can_switch():
        return None
    _lock_dir()
    for slot in range(1, SLOTS):
        uid = BASE_UID + slot
        if _is_machine_user(uid):
            continue
        fd = os.open(LOCK_DIR / str(uid), os.O_CREAT | os.O_RDWR | os.O_CLOEXEC, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            continue
        return Identity(uid, fd)
    raise SandboxError(f"all {SLOTS - 1} workload users ({BASE_UID + 1}..) are held by live "
                       f"sandboxes (locks in {LOCK_DIR}): stop some kit runs")


def _lock_dir() -> None:
    # Root-only: nobody else may plant or hold the locks.
    LOCK_DIR.mkdir(mode=0o700, exist_ok=True)
    info = LOCK_DIR.lstat()
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != 0 or info.st_mode & 0o077:
        raise SandboxError(f"{LOCK_DIR} must be a directory owned by root with mode 0700; "
                           f"remove it and rerun")


def _is_machine_user(uid: int) -> bool:
    with contextlib.suppress(KeyError):
        pwd.getpwuid(uid)
        return True
    return False


def give(path: Path, identity: Identity | None) -> None:
    """Make `path` and everything under it belong to `identity` (no-op without one)."""
    if identity is None:
        return
    os.chown(path, identity.uid, identity.gid, follow_symlinks=False)
    for root, dirs, files in os.walk(path):
        for name in dirs + files:
            os.chown(os.path.join(root, name), identity.uid, identity.gid,
                     follow_symlinks=False)
