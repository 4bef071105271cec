"""An instance's automated backups: base backups, a WAL archive, the restorable window.

As on AWS (RDS User Guide, "Introduction to backups"), an instance with a backup retention
period above 0 has a first backup taken when it is created and its transaction logs
shipped continuously; a point-in-time restore replays those logs over a base backup. With
retention 0 there are no automated backups and no point-in-time restore.

Shipping: every `wal_upload_seconds` the plane calls `upload`: it notes the time T,
commits an empty transaction, switches WAL segments and waits (bounded) until the archive
has the finished segment. Every commit before T is then archived, and so is a commit after
T, which PostgreSQL needs to stop a time-targeted recovery at T ("recovery ended before
configured recovery target was reached" otherwise): T becomes LatestRestorableTime.

The retention window is enforced on the restore time (EarliestRestorableTime), not by
deleting files: the archive keeps the whole run, so a restore the API allows always finds
its data, and one it refuses is refused as AWS would.
"""

from __future__ import annotations

import shutil
import threading
import time
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from kit.rds.errors import DataPlaneError
from kit.rds.server import PgServer, own

ARCHIVE_TIMEOUT = 20.0


def utcnow() -> datetime:
    """The wall clock, in UTC, as the RDS API reports times."""
    return datetime.now(UTC)


@dataclass(frozen=True)
class BaseBackup:
    """A base backup: where it is and when it became consistent."""

    path: Path
    done_at: datetime


class Backups:
    """The automated backups of one instance: archive + base backups."""

    def __init__(self, root: Path, name: str, retention_days: int,
                 day_seconds: float) -> None:
        self.root = own(root / f"backups-{name}")
        self.archive = own(self.root / "wal")
        self.retention_days = retention_days
        self.day_seconds = day_seconds
        self.bases: list[BaseBackup] = []
        self.latest: datetime | None = None
        self._lock = threading.Lock()

    @property
    def enabled(self) -> bool:
        """Whether automated backups are on (BackupRetentionPeriod > 0)."""
        return self.retention_days > 0

    def settings(self) -> dict[str, str]:
        """The archive_command a primary of this instance runs (discard when disabled)."""
        if not self.enabled:
            return {"archive_command": "'/bin/true'"}
        # Into a temporary name, then renamed: a restore never reads half a segment.
        return {"archive_command": f"'cp %p {self.archive}/%f.part && "
                                   f"mv -f {self.archive}/%f.part {self.archive}/%f'"}

    def base_backup(self, server: PgServer) -> BaseBackup:
        """Take a base backup of `server` (the first automated backup, or after a restore)."""
        target = self.root / f"base-{len(self.bases)}"
        server.basebackup(target)
        backup = BaseBackup(target, utcnow())
        with self._lock:
            self.bases.append(backup)
            self.latest = self.latest or backup.done_at
        return backup

    def upload(self, server: PgServer) -> datetime:
        """Ship the WAL written so far; every commit before the returned time is archived."""
        now = utcnow() - timedelta(milliseconds=1)
        # An empty transaction with an xid writes a commit record after `now`.
        server.query("select pg_current_xact_id()")
        segment = server.query("select pg_walfile_name(pg_switch_wal())")[0][0]
        deadline = time.monotonic() + ARCHIVE_TIMEOUT
        while not (self.archive / segment).exists():
            if time.monotonic() > deadline:
                raise DataPlaneError(f"WAL segment {segment} of {server.name} was not archived "
                                     f"within {ARCHIVE_TIMEOUT:.0f} s (log: {server.dir})")
            time.sleep(0.005)
        stamp = now.replace(microsecond=now.microsecond // 1000 * 1000)
        with self._lock:
            self.latest = max(self.latest or stamp, stamp)
        return stamp

    def window(self, now: datetime | None = None) -> tuple[datetime, datetime] | None:
        """(EarliestRestorableTime, LatestRestorableTime), or None without backups."""
        with self._lock:
            if not self.enabled or not self.bases or self.latest is None:
                return None
            keep = timedelta(seconds=self.retention_days * self.day_seconds)
            earliest = max(self.bases[0].done_at, (now or utcnow()) - keep)
            return earliest, self.latest

    def recovery(self, when: datetime) -> tuple[BaseBackup, dict[str, str]]:
        """The base backup to start from and the recovery settings that stop at `when`:
        every transaction committed at or before it, none after (recovery_target_inclusive)."""
        with self._lock:
            usable = [b for b in self.bases if b.done_at <= when]
        if not usable:
            raise DataPlaneError(f"no base backup of {self.root.name} is older than {when}")
        stamp = when.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S.%f+00")
        return usable[-1], {
            "restore_command": f"'cp {self.archive}/%f %p'",
            "recovery_target_time": f"'{stamp}'", "recovery_target_inclusive": "on",
            "recovery_target_timeline": "'latest'", "recovery_target_action": "'promote'"}

    def remove(self) -> None:
        """Delete the automated backups (DeleteDBInstance, DeleteAutomatedBackups)."""
        self.retention_days = 0
        with self._lock:
            self.bases.clear()
            self.latest = None
        shutil.rmtree(self.root, ignore_errors=True)
