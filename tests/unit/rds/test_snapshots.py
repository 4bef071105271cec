"""DB snapshots: found by identifier or ARN, usable for a restore only once available, and
an instance's automated snapshots forgotten with its backups."""

from __future__ import annotations

import pytest

from kit.rds.errors import DBSnapshotNotFound, InvalidDBSnapshotState
from kit.rds.snapshots import Snapshots


def test_a_snapshot_is_creating_until_finished(tmp_path):
    snaps = Snapshots(tmp_path)
    snap = snaps.new("nightly", "ledger")
    assert snaps.status("nightly") == "creating"
    assert not snap.ready.is_set()
    snaps.finished(snap, True)
    assert snaps.status("nightly") == "available"
    assert snap.ready.is_set()
    failed = snaps.new("broken", "ledger")
    snaps.finished(failed, False)
    assert snaps.status("broken") == "failed"
    assert snaps.status("moto-only") is None  # not the plane's: moto's status stands


def test_a_snapshot_is_found_by_its_arn(tmp_path):
    snaps = Snapshots(tmp_path)
    snap = snaps.new("nightly", "ledger")
    assert snaps.get("arn:aws:rds:us-east-1:123456789012:snapshot:nightly") is snap
    assert snap.path == tmp_path / "snapshots" / "nightly"
    odd = snaps.new("rds:ledger-2026/12", "ledger")
    assert odd.path.name == "rds_ledger-2026_12"  # an identifier never escapes the folder


def test_a_restore_needs_an_available_snapshot(tmp_path):
    # API_RestoreDBInstanceFromDBSnapshot, Errors: DBSnapshotNotFound,
    # InvalidDBSnapshotState.
    snaps = Snapshots(tmp_path)
    with pytest.raises(DBSnapshotNotFound):
        snaps.usable("nosuch")
    snap = snaps.new("nightly", "ledger")
    with pytest.raises(InvalidDBSnapshotState, match="creating"):
        snaps.usable("nightly")
    snaps.finished(snap, False)
    with pytest.raises(InvalidDBSnapshotState, match="failed"):
        snaps.usable("nightly")
    good = snaps.new("weekly", "ledger")
    snaps.finished(good, True)
    assert snaps.usable("weekly") is good


def test_deleting_automated_backups_forgets_only_that_instances_automated_snapshots(tmp_path):
    # RDS User Guide, "Deleting a DB instance": manual snapshots are kept, automated
    # backups go unless they are retained.
    snaps = Snapshots(tmp_path)
    snaps.new("rds:ledger-1", "ledger", "automated", tmp_path / "base-0")
    snaps.new("manual", "ledger")
    snaps.new("rds:other-1", "other", "automated", tmp_path / "base-0")
    snaps.drop_automated("ledger")
    assert snaps.get("rds:ledger-1") is None
    assert snaps.get("manual") is not None
    assert snaps.get("rds:other-1") is not None
    assert not snaps.get("rds:other-1").owned  # the data is the backups', not the snapshot's
