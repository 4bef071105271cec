"""A DB instance's state machine where no server is involved: status events, an Availability
Zone cut off and restored (the endpoint stops and resumes answering), a single-AZ instance
that cannot fail over, modifications of retention and Multi-AZ, and the plane's lookups."""

from __future__ import annotations

import time
from typing import Any

from .builders import instance, plane


def recorder() -> tuple[list[tuple[str, str, dict[str, Any]]], Any]:
    events: list[tuple[str, str, dict[str, Any]]] = []
    return events, lambda identifier, event, **detail: events.append((identifier, event, detail))


def test_losing_the_zone_of_a_single_az_instance_leaves_it_unreachable_until_healed(tmp_path):
    # RDS User Guide, "Multi-AZ DB instance deployments": only a Multi-AZ instance fails over
    # to a standby in another zone; a single-AZ one waits for its zone.
    events, emit = recorder()
    db = instance(tmp_path, emit=emit)
    db.cut_off()
    assert db.partitioned
    assert db.proxy.calls == [("enabled", False)]
    db.lose_az()  # no standby: no failover
    assert db.partitioned and db.status == "available"
    assert events == [("ledger", "az_lost", {})]
    db.heal_az()
    assert not db.partitioned
    assert events[-1] == ("ledger", "az_restored", {})
    db.heal_az()  # healing twice tells nothing new
    assert len(events) == 2


def test_modify_turns_backups_off_and_drops_multi_az(tmp_path):
    # API_ModifyDBInstance: BackupRetentionPeriod 0 disables automated backups; MultiAZ
    # false removes the standby. The instance is available again afterwards.
    events, emit = recorder()
    db = instance(tmp_path, emit=emit, multi_az=True, retention=3)
    db.status = "modifying"
    db.modify({"retention_days": 0, "multi_az": False})
    assert db.backups.retention_days == 0 and not db.backups.enabled
    assert db.window() is None
    assert (db.spec.retention_days, db.spec.multi_az) == (0, False)
    assert db.status == "available"
    assert events == [("ledger", "status", {"status": "available"})]


def test_the_endpoint_is_the_listener_clients_connect_to(tmp_path):
    db = instance(tmp_path)
    assert db.endpoint == ("127.0.0.1", db.proxy.port)


def test_the_plane_finds_an_instance_by_name_or_arn_whatever_its_case(tmp_path):
    db = instance(tmp_path)
    found = plane(tmp_path, db)
    assert found.get("ledger") is db
    assert found.get("arn:aws:rds:us-east-1:123456789012:db:LEDGER") is db
    assert found.get("other") is None
    assert found.by_port(db.proxy.port) is db


def test_the_master_password_is_the_kits_the_same_for_a_user_on_every_restore(tmp_path):
    found = plane(tmp_path)
    assert found.password("app") == found.password("app")
    assert found.password("app") != found.password("admin")
    assert len(found.password("app")) == 64  # an HMAC-SHA256, never the solution's password


def test_work_that_outlasts_a_transitions_model_is_an_overrun_and_work_within_it_none(
        tmp_path):
    # A transition lasts its modelled time with its real work inside it; the work a loaded
    # machine makes longer is reported, so that recovery.rto can leave it out.
    events, emit = recorder()
    db = instance(tmp_path, emit=emit)
    db._within(0.01, "failover", lambda: time.sleep(0.2))
    [(name, event, detail)] = events
    assert (name, event, detail["transition"]) == ("ledger", "overrun", "failover")
    assert detail["seconds"] >= 0.19
    db._within(0.0, "create", lambda: time.sleep(0.05))  # nothing modelled: nothing over
    assert len(events) == 1
    # A recovery's model counts from when its fault struck: detection is in its time.
    db._within(0.5, "failover", lambda: None, since=time.monotonic() - 2.0)
    assert events[-1][2]["seconds"] >= 1.5
