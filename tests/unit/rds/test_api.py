"""The RDS handlers' checks of what the data plane knows, answered before moto sees the call,
with the error codes and statuses of the API reference
(https://docs.aws.amazon.com/AmazonRDS/latest/APIReference/, each action's "Errors"), and
the record fields the plane rewrites in moto's replies."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from kit.rds import api
from kit.rds.config import RdsTimings
from kit.rds.instance import other_zone
from kit.rds.snapshots import Snapshots
from kit.rds.wire import NS

from .builders import (
    PORT,
    Moto,
    backed_up,
    describe_reply,
    error_of,
    instance,
    instance_record,
    plane,
    request,
)

# An hour ago: the retention window is enforced against the present (a fixed date left it).
T0 = datetime.now(UTC).replace(second=0, microsecond=0) - timedelta(hours=1)


def at(seconds: int) -> str:
    """T0 + seconds as the API's RestoreTime, without fractions."""
    return f"{T0 + timedelta(seconds=seconds):%Y-%m-%dT%H:%M:%S}Z"


def call(action: str, the_plane, moto: Moto, **params: str):
    return api.handle(action, request(the_plane, moto, **params))


def test_reboot_of_an_instance_not_available_is_invalid_state(tmp_path):
    # API_RebootDBInstance, Errors: InvalidDBInstanceState (400), "The DB instance isn't in
    # a valid state."
    db = instance(tmp_path, status="modifying")
    moto = Moto()
    reply = call("RebootDBInstance", plane(tmp_path, db), moto, DBInstanceIdentifier="ledger")
    status, code, message = error_of(reply)
    assert (status, code) == (400, "InvalidDBInstanceState")
    assert "modifying" in message
    assert moto.calls == 0


def test_force_failover_needs_multi_az(tmp_path):
    # API_RebootDBInstance, ForceFailover: "Constraints: You can't enable force failover if
    # the instance isn't configured for Multi-AZ."
    moto = Moto()
    reply = call("RebootDBInstance", plane(tmp_path, instance(tmp_path)), moto,
                 DBInstanceIdentifier="ledger", ForceFailover="true")
    assert error_of(reply)[:2] == (400, "InvalidParameterCombination")
    assert moto.calls == 0


def test_a_call_about_an_instance_the_plane_does_not_hold_goes_to_moto(tmp_path):
    moto = Moto()
    reply = call("RebootDBInstance", plane(tmp_path), moto, DBInstanceIdentifier="other")
    assert moto.calls == 1
    assert reply is moto.reply


@pytest.mark.parametrize(("params", "why"), [
    ({}, "FinalDBSnapshotIdentifier is required"),
    ({"SkipFinalSnapshot": "true", "FinalDBSnapshotIdentifier": "last"}, "can't be specified"),
])
def test_delete_takes_a_final_snapshot_or_skips_it_not_both(tmp_path, params, why):
    # API_DeleteDBInstance: SkipFinalSnapshot "If you don't enable this parameter, you must
    # specify the FinalDBSnapshotIdentifier parameter"; FinalDBSnapshotIdentifier
    # "Specifying this parameter and also specifying to skip final DB snapshot creation in
    # SkipFinalShapshot results in an error."
    moto = Moto()
    reply = call("DeleteDBInstance", plane(tmp_path, instance(tmp_path)), moto,
                 DBInstanceIdentifier="ledger", **params)
    status, code, message = error_of(reply)
    assert (status, code) == (400, "InvalidParameterCombination")
    assert why in message
    assert moto.calls == 0


def test_delete_of_an_instance_being_deleted_is_invalid_state(tmp_path):
    moto = Moto()
    reply = call("DeleteDBInstance", plane(tmp_path, instance(tmp_path, status="deleting")),
                 moto, DBInstanceIdentifier="ledger", SkipFinalSnapshot="true")
    assert error_of(reply)[:2] == (400, "InvalidDBInstanceState")
    assert moto.calls == 0


@pytest.mark.parametrize("action", ["CreateDBSnapshot", "ModifyDBInstance"])
def test_snapshot_and_modify_need_an_available_instance(tmp_path, action):
    # API_CreateDBSnapshot and API_ModifyDBInstance, Errors: InvalidDBInstanceState (400).
    moto = Moto()
    reply = call(action, plane(tmp_path, instance(tmp_path, status="rebooting")), moto,
                 DBInstanceIdentifier="ledger", DBSnapshotIdentifier="snap")
    assert error_of(reply)[:2] == (400, "InvalidDBInstanceState")
    assert moto.calls == 0


def test_a_rename_is_the_kits_error_not_the_solutions(tmp_path):
    the_plane = plane(tmp_path, instance(tmp_path))
    call("ModifyDBInstance", the_plane, Moto(), DBInstanceIdentifier="ledger",
         NewDBInstanceIdentifier="renamed")
    assert len(the_plane.errors) == 1
    assert "NewDBInstanceIdentifier" in the_plane.errors[0]


def pitr(tmp_path, **params: str):
    """A point-in-time restore from `ledger` (backed up from T0 to T0 + 60 s)."""
    source = backed_up(instance(tmp_path), T0, T0 + timedelta(seconds=60))
    moto = Moto()
    reply = call("RestoreDBInstanceToPointInTime", plane(tmp_path, source), moto,
                 SourceDBInstanceIdentifier="ledger", TargetDBInstanceIdentifier="copy",
                 **params)
    return reply, moto


def test_pitr_from_an_instance_without_backups_is_not_enabled(tmp_path):
    # API_RestoreDBInstanceToPointInTime, Errors: PointInTimeRestoreNotEnabled (400),
    # "SourceDBInstanceIdentifier refers to a DB instance with BackupRetentionPeriod equal
    # to 0."
    moto = Moto()
    reply = call("RestoreDBInstanceToPointInTime", plane(tmp_path, instance(tmp_path,
                                                                           retention=0)),
                 moto, SourceDBInstanceIdentifier="ledger", UseLatestRestorableTime="true")
    assert error_of(reply)[:2] == (400, "PointInTimeRestoreNotEnabled")
    assert moto.calls == 0


def test_pitr_takes_restore_time_or_latest_not_both(tmp_path):
    # RestoreTime: "Can't be specified if the UseLatestRestorableTime parameter is enabled."
    reply, moto = pitr(tmp_path, UseLatestRestorableTime="true",
                       RestoreTime=at(30))
    assert error_of(reply)[:2] == (400, "InvalidParameterCombination")
    assert moto.calls == 0


@pytest.mark.parametrize("when", [61, -1])
def test_pitr_outside_the_restorable_window_is_refused(tmp_path, when):
    # RestoreTime: "Must be before the latest restorable time for the DB instance"; nor
    # before the first backup (EarliestRestorableTime).
    reply, moto = pitr(tmp_path, RestoreTime=at(when))
    status, code, message = error_of(reply)
    assert (status, code) == (400, "InvalidParameterValue")
    assert f"{at(60)[:-1]}.000Z (LatestRestorableTime)" in message
    assert moto.calls == 0


def test_pitr_with_a_time_that_is_no_timestamp_is_an_invalid_value(tmp_path):
    reply, moto = pitr(tmp_path, RestoreTime="yesterday")
    assert error_of(reply)[:2] == (400, "InvalidParameterValue")
    assert moto.calls == 0


def test_pitr_inside_the_window_goes_to_moto(tmp_path):
    reply, moto = pitr(tmp_path, RestoreTime=at(30))
    assert moto.calls == 1
    assert reply is moto.reply  # moto's refusal (here: no such instance) passes through


def test_pitr_before_the_first_backup_is_invalid_state(tmp_path):
    moto = Moto()
    reply = call("RestoreDBInstanceToPointInTime", plane(tmp_path, instance(tmp_path)), moto,
                 SourceDBInstanceIdentifier="ledger", UseLatestRestorableTime="true")
    assert error_of(reply)[:2] == (400, "InvalidDBInstanceState")


def test_restore_from_a_snapshot_the_plane_lacks_is_not_found(tmp_path):
    # API_RestoreDBInstanceFromDBSnapshot, Errors: DBSnapshotNotFound (404),
    # "DBSnapshotIdentifier doesn't refer to an existing DB snapshot."
    the_plane = plane(tmp_path)
    the_plane.snapshots = Snapshots(tmp_path)
    moto = Moto()
    reply = call("RestoreDBInstanceFromDBSnapshot", the_plane, moto,
                 DBSnapshotIdentifier="nosuch", DBInstanceIdentifier="copy")
    assert error_of(reply)[:2] == (404, "DBSnapshotNotFound")
    the_plane.snapshots.new("busy", "ledger")
    reply = call("RestoreDBInstanceFromDBSnapshot", the_plane, moto,
                 DBSnapshotIdentifier="busy", DBInstanceIdentifier="copy")
    # Errors: InvalidDBSnapshotState (400), "The state of the DB snapshot doesn't allow
    # deletion." (a snapshot still `creating`)
    assert error_of(reply)[:2] == (400, "InvalidDBSnapshotState")
    assert moto.calls == 0


def fields(reply, identifier: str) -> dict[str, str | None]:
    root = ET.fromstring(reply[2])
    record = next(r for r in root.iter(f"{{{NS}}}DBInstance")
                  if r.findtext(f"{{{NS}}}DBInstanceIdentifier") == identifier)
    names = ("DBInstanceStatus", "Endpoint/Address", "Endpoint/Port", "MultiAZ",
             "LatestRestorableTime")
    return {n: record.findtext("/".join(f"{{{NS}}}{p}" for p in n.split("/")))
            for n in names}


def test_describe_reports_the_planes_status_endpoint_and_restorable_time(tmp_path):
    # DBInstance (API_DBInstance.html): Endpoint "might not be shown for instances with the
    # status of creating"; LatestRestorableTime "The latest time to which a database in
    # this DB instance can be restored with point-in-time restore".
    backed = backed_up(instance(tmp_path, status="rebooting", multi_az=True),
                       T0, T0 + timedelta(seconds=5))
    creating = instance(tmp_path, status="creating", identifier="fresh")
    moto = Moto(describe_reply(instance_record("ledger"), instance_record("fresh"),
                               instance_record("moto-only", status="stopped")))
    reply = call("DescribeDBInstances", plane(tmp_path, backed, creating), moto)
    assert fields(reply, "ledger") == {
        "DBInstanceStatus": "rebooting", "Endpoint/Address": "127.0.0.1",
        "Endpoint/Port": str(PORT), "MultiAZ": "true",
        "LatestRestorableTime": f"{at(5)[:-1]}.000Z"}
    assert fields(reply, "fresh") == {
        "DBInstanceStatus": "creating", "Endpoint/Address": None, "Endpoint/Port": None,
        "MultiAZ": "false", "LatestRestorableTime": None}
    assert fields(reply, "moto-only") == {
        "DBInstanceStatus": "stopped", "Endpoint/Address": "moto.example",
        "Endpoint/Port": "5432", "MultiAZ": "false", "LatestRestorableTime": None}


def test_an_engine_other_than_postgres_stays_moto_s_record(tmp_path):
    the_plane = plane(tmp_path)
    moto = Moto(describe_reply(instance_record("mysql-db")))
    reply = call("CreateDBInstance", the_plane, moto, DBInstanceIdentifier="mysql-db",
                 Engine="mysql")
    assert reply is moto.reply
    assert the_plane.instances == {}


def test_timings_are_bounded_and_unknown_ones_refused():
    assert RdsTimings().retention_day_seconds == 86400.0  # a day is a day unless told
    for bad in ({"wal_upload_seconds": 0}, {"reboot_seconds": 121}, {"reboot_sec": 1}):
        with pytest.raises(ValueError):
            RdsTimings(**bad)


def _zones(reply, identifier: str) -> tuple[str | None, str | None]:
    root = ET.fromstring(reply[2])
    record = next(r for r in root.iter(f"{{{NS}}}DBInstance")
                  if r.findtext(f"{{{NS}}}DBInstanceIdentifier") == identifier)
    return (record.findtext(f"{{{NS}}}AvailabilityZone"),
            record.findtext(f"{{{NS}}}SecondaryAvailabilityZone"))


def test_describe_reports_the_primary_s_zone_and_a_multi_az_standby_s(tmp_path):
    # DBInstance (API_DBInstance.html): AvailabilityZone "Specifies the name of the
    # Availability Zone where the DB instance is located"; SecondaryAvailabilityZone "If
    # present, specifies the name of the secondary Availability Zone for a DB instance
    # with multi-AZ support". moto reports neither as they move.
    multi = instance(tmp_path, multi_az=True)
    single = instance(tmp_path, identifier="single")
    the_plane = plane(tmp_path, multi, single)
    moto = Moto(describe_reply(instance_record("ledger", multi_az=True),
                               instance_record("single")))
    assert _zones(call("DescribeDBInstances", the_plane, moto), "ledger") == (
        "us-east-1a", "us-east-1b")
    assert _zones(call("DescribeDBInstances", the_plane, moto), "single") == (
        "us-east-1a", None)
    multi.zone, multi.secondary_zone = multi.secondary_zone, multi.zone  # as _failover does
    assert _zones(call("DescribeDBInstances", the_plane, moto), "ledger") == (
        "us-east-1b", "us-east-1a")


def test_the_standby_stands_in_another_zone_of_the_subnet_group(tmp_path):
    record = ET.fromstring(
        f'<DBInstance xmlns="{NS}"><DBInstanceIdentifier>x</DBInstanceIdentifier>'
        "<MultiAZ>true</MultiAZ><AvailabilityZone>us-east-1c</AvailabilityZone>"
        "<DBSubnetGroup><Subnets>"
        + "".join(f"<Subnet><SubnetAvailabilityZone><Name>{z}</Name></SubnetAvailabilityZone>"
                  "</Subnet>" for z in ("us-east-1c", "us-east-1f"))
        + "</Subnets></DBSubnetGroup></DBInstance>")
    spec = api._spec(record)
    assert (spec.zone, spec.zones) == ("us-east-1c", ("us-east-1c", "us-east-1f"))
    assert other_zone(spec, spec.zone) == "us-east-1f"
    assert other_zone(replace(spec, zones=()), "us-east-1b") == "us-east-1a"


def test_modify_adds_and_drops_the_secondary_zone_with_multi_az(tmp_path):
    db = instance(tmp_path)
    assert db.secondary_zone is None
    db._add_standby = lambda: None  # no server here: the zones are what is under test
    db.modify({"multi_az": True})
    assert (db.zone, db.secondary_zone) == ("us-east-1a", "us-east-1b")
    db.modify({"multi_az": False})
    assert db.secondary_zone is None
