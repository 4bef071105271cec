"""Automated backups: on only with a retention period above 0, the restorable window from
the first backup (or the retention period) to the last WAL shipped, and the recovery that
stops at a point in time."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from kit.rds.backups import Backups, BaseBackup
from kit.rds.errors import DataPlaneError

T0 = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


def backups(tmp_path, retention: int = 1, day_seconds: float = 100.0) -> Backups:
    return Backups(tmp_path, "ledger", retention, day_seconds)


def test_retention_zero_has_no_backups_and_archives_nothing(tmp_path):
    # RDS User Guide, "Introduction to backups": setting the backup retention period to 0
    # disables automated backups.
    off = backups(tmp_path, retention=0)
    assert not off.enabled
    assert off.settings() == {"archive_command": "'/bin/true'"}
    off.bases.append(BaseBackup(tmp_path, T0))
    off.latest = T0
    assert off.window(T0) is None


def test_the_archive_command_writes_a_segment_whole(tmp_path):
    command = backups(tmp_path).settings()["archive_command"]
    archive = tmp_path / "backups-ledger" / "wal"
    assert command == f"'cp %p {archive}/%f.part && mv -f {archive}/%f.part {archive}/%f'"


def test_the_window_runs_from_the_first_backup_to_the_last_upload(tmp_path):
    found = backups(tmp_path)
    assert found.window(T0) is None  # no base backup yet
    found.bases.append(BaseBackup(tmp_path / "base-0", T0))
    found.latest = T0 + timedelta(seconds=30)
    assert found.window(T0 + timedelta(seconds=40)) == (T0, T0 + timedelta(seconds=30))
    # A later base backup does not move the earliest restorable time.
    found.bases.append(BaseBackup(tmp_path / "base-1", T0 + timedelta(seconds=20)))
    assert found.window(T0 + timedelta(seconds=40)) == (T0, T0 + timedelta(seconds=30))


def test_the_retention_period_moves_the_earliest_restorable_time(tmp_path):
    # API_DBInstance, BackupRetentionPeriod: "The number of days for which automatic DB
    # snapshots are retained"; one day lasts `day_seconds` on the run's clock.
    found = backups(tmp_path, retention=2, day_seconds=100.0)
    found.bases.append(BaseBackup(tmp_path / "base-0", T0))
    found.latest = T0 + timedelta(seconds=500)
    now = T0 + timedelta(seconds=550)
    assert found.window(now) == (now - timedelta(seconds=200), T0 + timedelta(seconds=500))


def test_recovery_starts_from_the_last_base_backup_before_the_target(tmp_path):
    found = backups(tmp_path)
    first = BaseBackup(tmp_path / "base-0", T0)
    second = BaseBackup(tmp_path / "base-1", T0 + timedelta(seconds=60))
    found.bases += [first, second]
    base, settings = found.recovery(T0 + timedelta(seconds=59, microseconds=250000))
    assert base is first
    assert settings["recovery_target_time"] == "'2026-12-01 12:00:59.250000+00'"
    # Every transaction committed at the target, none after (the API's RestoreTime).
    assert settings["recovery_target_inclusive"] == "on"
    assert settings["recovery_target_action"] == "'promote'"
    assert found.recovery(T0 + timedelta(seconds=60))[0] is second
    with pytest.raises(DataPlaneError, match="no base backup"):
        found.recovery(T0 - timedelta(seconds=1))


def test_removing_backups_turns_them_off(tmp_path):
    found = backups(tmp_path)
    found.bases.append(BaseBackup(tmp_path / "base-0", T0))
    found.latest = T0
    found.remove()
    assert (found.enabled, found.bases, found.latest) == (False, [], None)
    assert not found.root.exists()
