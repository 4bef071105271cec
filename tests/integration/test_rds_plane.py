"""The RDS data plane against real servers: each call the drills make, through the front
(as Terraform and the gateway reach it), checked against what the API reference documents.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from datetime import timedelta
from typing import Any

import psycopg
import pytest
from botocore.exceptions import ClientError
from psycopg import errors

from kit import aws
from kit.rds.config import RdsTimings
from kit.rds.plane import DataPlane
from kit.run.sandbox import Sandbox
from tests.integration.adversary import DATABASE_ESCAPES

TIMINGS = RdsTimings(reboot_seconds=0.3, failover_seconds=0.3, restore_seconds=0.1,
                     wal_upload_seconds=0.3, retention_day_seconds=30.0)
WAIT = 60.0


PLANES: list[Any] = []  # the module's data plane: it knows the master user's password


@pytest.fixture(scope="module")
def sandbox() -> Iterator[Sandbox]:
    with Sandbox(postgres=False) as sb:
        PLANES.append(sb.rds.plane)
        yield sb
        PLANES.remove(sb.rds.plane)


@pytest.fixture
def rds(sandbox: Sandbox) -> Iterator[Any]:
    sandbox.moto.reset()
    sandbox.rds.plane.enable(TIMINGS)
    try:
        yield aws.client("rds", sandbox.rds.url)
    finally:
        sandbox.rds.plane.reset()
        sandbox.toxiproxy.reset()


def until(condition: Callable[[], Any], what: str, timeout: float = WAIT) -> Any:
    """Poll `condition` (bounded) until it returns something truthy."""
    deadline = time.monotonic() + timeout
    while True:
        found = condition()
        if found:
            return found
        assert time.monotonic() < deadline, f"{what} did not happen within {timeout} s"
        time.sleep(0.05)


def describe(rds: Any, name: str) -> dict[str, Any]:
    return rds.describe_db_instances(DBInstanceIdentifier=name)["DBInstances"][0]


def available(rds: Any, name: str) -> dict[str, Any]:
    return until(lambda: (d := describe(rds, name))["DBInstanceStatus"] == "available" and d,
                 f"{name} available")


def create(rds: Any, name: str, *, multi_az: bool = False, retention: int = 7,
           protected: bool = False) -> dict[str, Any]:
    rds.create_db_instance(DBInstanceIdentifier=name, Engine="postgres",
                           DBInstanceClass="db.t4g.micro", AllocatedStorage=20,
                           MasterUsername="app", MasterUserPassword="not-checked-1",
                           DBName="ledger", MultiAZ=multi_az, BackupRetentionPeriod=retention,
                           DeletionProtection=protected)
    return available(rds, name)


def url(instance: dict[str, Any], user: str = "app") -> str:
    """The endpoint, logged in as `user` with the password the kit gives it."""
    endpoint, password = instance["Endpoint"], PLANES[0].password(user)
    return f"postgresql://{user}:{password}@{endpoint['Address']}:{endpoint['Port']}/ledger"


def write(instance: dict[str, Any], ids: range) -> dict[int, Any]:
    """Insert rows one transaction each; id -> commit timestamp (the server's)."""
    with psycopg.connect(url(instance), autocommit=True) as conn:
        conn.execute("create table if not exists t (id int primary key)")
        for i in ids:
            conn.execute("insert into t values (%s)", (i,))
        return dict(conn.execute("select id, pg_xact_commit_timestamp(xmin) from t "
                                 "where id = any(%s)", (list(ids),)).fetchall())


def ids(instance: dict[str, Any]) -> list[int]:
    with psycopg.connect(url(instance), autocommit=True, connect_timeout=5) as conn:
        return [r[0] for r in conn.execute("select id from t order by id").fetchall()]


def server_port(instance: dict[str, Any]) -> int:
    """The port of the server behind the endpoint (it changes when the endpoint moves)."""
    with psycopg.connect(url(instance), autocommit=True, connect_timeout=5) as conn:
        return conn.execute("select inet_server_port()").fetchone()[0]


def code(exc: pytest.ExceptionInfo[ClientError]) -> str:
    return exc.value.response["Error"]["Code"]


def test_create_backs_the_instance_with_a_real_server_and_a_synchronous_standby(
        rds: Any, sandbox: Sandbox) -> None:
    rds.create_db_instance(DBInstanceIdentifier="ledger-a", Engine="postgres",
                           DBInstanceClass="db.t4g.micro", AllocatedStorage=20,
                           MasterUsername="app", MasterUserPassword="not-checked-1",
                           DBName="ledger", MultiAZ=True, BackupRetentionPeriod=7)
    assert describe(rds, "ledger-a")["DBInstanceStatus"] == "creating"
    db = available(rds, "ledger-a")
    assert db["Endpoint"]["Address"] == "127.0.0.1" and db["MultiAZ"] is True
    write(db, range(3))
    assert ids(db) == [0, 1, 2]
    primary = sandbox.rds.plane.get("ledger-a").primary
    assert primary.query("select sync_state from pg_stat_replication") == [("sync",)]
    assert db["LatestRestorableTime"] is not None


def test_reboot_takes_the_instance_through_rebooting_and_keeps_every_commit(rds: Any) -> None:
    db = create(rds, "ledger-b")
    write(db, range(5))
    rds.reboot_db_instance(DBInstanceIdentifier="ledger-b")
    assert describe(rds, "ledger-b")["DBInstanceStatus"] == "rebooting"
    with pytest.raises(ClientError) as again:
        rds.reboot_db_instance(DBInstanceIdentifier="ledger-b")
    assert code(again) == "InvalidDBInstanceState"
    db = available(rds, "ledger-b")
    assert ids(db) == list(range(5))
    with pytest.raises(ClientError) as single:
        rds.reboot_db_instance(DBInstanceIdentifier="ledger-b", ForceFailover=True)
    assert code(single) == "InvalidParameterCombination"


def test_reboot_with_failover_moves_the_endpoint_to_the_standby(rds: Any) -> None:
    db = create(rds, "ledger-c", multi_az=True)
    write(db, range(20))
    before = server_port(db)
    rds.reboot_db_instance(DBInstanceIdentifier="ledger-c", ForceFailover=True)
    after_db = available(rds, "ledger-c")
    assert after_db["Endpoint"] == db["Endpoint"]  # the same address: the DNS name moved
    assert server_port(after_db) != before
    assert ids(after_db) == list(range(20))
    write(after_db, range(20, 25))  # a primary again, with commits acknowledged
    assert ids(after_db)[-1] == 24


def test_snapshot_restore_is_a_new_instance_with_exactly_the_snapshot_data(
        rds: Any, sandbox: Sandbox) -> None:
    db = create(rds, "ledger-d")
    write(db, range(10))
    rds.create_db_snapshot(DBInstanceIdentifier="ledger-d", DBSnapshotIdentifier="snap-d")
    with pytest.raises(ClientError) as early:
        rds.restore_db_instance_from_db_snapshot(DBInstanceIdentifier="x-early",
                                                 DBSnapshotIdentifier="snap-d")
    assert code(early) == "InvalidDBSnapshotState"
    until(lambda: rds.describe_db_snapshots(DBSnapshotIdentifier="snap-d")["DBSnapshots"][0]
          ["Status"] == "available", "snapshot available")
    write(db, range(10, 15))
    rds.restore_db_instance_from_db_snapshot(DBInstanceIdentifier="ledger-d2",
                                             DBSnapshotIdentifier="snap-d", MultiAZ=True,
                                             DeletionProtection=True)
    restored = available(rds, "ledger-d2")
    assert restored["Endpoint"]["Port"] != db["Endpoint"]["Port"]
    assert ids(restored) == list(range(10))
    assert restored["MultiAZ"] is True and restored["DeletionProtection"] is True
    assert sandbox.rds.plane.get("ledger-d2").standby is not None
    with pytest.raises(ClientError) as missing:
        rds.restore_db_instance_from_db_snapshot(DBInstanceIdentifier="x",
                                                 DBSnapshotIdentifier="no-such")
    assert code(missing) == "DBSnapshotNotFound"


def test_point_in_time_restore_holds_exactly_what_was_committed_by_then(rds: Any) -> None:
    db = create(rds, "ledger-e", multi_az=True)
    committed = write(db, range(40))
    target = committed[24]
    until(lambda: describe(rds, "ledger-e")["LatestRestorableTime"] > committed[39],
          "WAL of every commit shipped")
    rds.restore_db_instance_to_point_in_time(SourceDBInstanceIdentifier="ledger-e",
                                             TargetDBInstanceIdentifier="ledger-e2",
                                             RestoreTime=target)
    restored = available(rds, "ledger-e2")
    assert restored["Endpoint"]["Port"] != db["Endpoint"]["Port"]
    assert ids(restored) == list(range(25))  # committed at or before T, nothing after
    # "By default, the new DB instance is created as a single-AZ deployment", unprotected.
    assert restored["MultiAZ"] is False and restored["DeletionProtection"] is False
    rds.restore_db_instance_to_point_in_time(SourceDBInstanceIdentifier="ledger-e",
                                             TargetDBInstanceIdentifier="ledger-e3",
                                             UseLatestRestorableTime=True)
    assert ids(available(rds, "ledger-e3")) == list(range(40))
    with pytest.raises(ClientError) as both:
        rds.restore_db_instance_to_point_in_time(
            SourceDBInstanceIdentifier="ledger-e", TargetDBInstanceIdentifier="x",
            RestoreTime=target, UseLatestRestorableTime=True)
    assert code(both) == "InvalidParameterCombination"
    with pytest.raises(ClientError) as future:
        rds.restore_db_instance_to_point_in_time(
            SourceDBInstanceIdentifier="ledger-e", TargetDBInstanceIdentifier="x",
            RestoreTime=target + timedelta(hours=1))
    assert code(future) == "InvalidParameterValue"


def test_retention_zero_means_no_point_in_time_restore(rds: Any) -> None:
    db = create(rds, "ledger-f", retention=0)
    assert "LatestRestorableTime" not in db
    assert rds.describe_db_snapshots(DBInstanceIdentifier="ledger-f",
                                     SnapshotType="automated")["DBSnapshots"] == []
    with pytest.raises(ClientError) as refused:
        rds.restore_db_instance_to_point_in_time(SourceDBInstanceIdentifier="ledger-f",
                                                 TargetDBInstanceIdentifier="x",
                                                 UseLatestRestorableTime=True)
    assert code(refused) == "PointInTimeRestoreNotEnabled"
    rds.modify_db_instance(DBInstanceIdentifier="ledger-f", BackupRetentionPeriod=7,
                           ApplyImmediately=True)
    db = available(rds, "ledger-f")
    until(lambda: describe(rds, "ledger-f").get("LatestRestorableTime"), "backups on")


def test_retention_window_refuses_a_time_older_than_the_retention(rds: Any,
                                                                  sandbox: Sandbox) -> None:
    sandbox.rds.plane.enable(TIMINGS.model_copy(update={"retention_day_seconds": 0.5}))
    db = create(rds, "ledger-g", retention=1)
    committed = write(db, range(3))
    time.sleep(1.0)  # the run's clock: one "day" of retention is 0.5 s here
    with pytest.raises(ClientError) as old:
        rds.restore_db_instance_to_point_in_time(SourceDBInstanceIdentifier="ledger-g",
                                                 TargetDBInstanceIdentifier="x",
                                                 RestoreTime=committed[0])
    assert code(old) == "InvalidParameterValue"
    assert "EarliestRestorableTime" in old.value.response["Error"]["Message"]


def test_delete_is_refused_under_deletion_protection_and_keeps_a_final_snapshot(
        rds: Any) -> None:
    db = create(rds, "ledger-h", protected=True)
    write(db, range(7))
    with pytest.raises(ClientError) as protected:
        rds.delete_db_instance(DBInstanceIdentifier="ledger-h", SkipFinalSnapshot=True)
    assert code(protected) == "InvalidParameterCombination"
    assert ids(available(rds, "ledger-h")) == list(range(7))
    with pytest.raises(ClientError) as no_name:
        rds.delete_db_instance(DBInstanceIdentifier="ledger-h")
    assert code(no_name) == "InvalidParameterCombination"
    rds.modify_db_instance(DBInstanceIdentifier="ledger-h", DeletionProtection=False,
                           ApplyImmediately=True)
    available(rds, "ledger-h")
    rds.delete_db_instance(DBInstanceIdentifier="ledger-h",
                           FinalDBSnapshotIdentifier="ledger-h-final")
    with pytest.raises(ClientError) as gone:
        describe(rds, "ledger-h")
    assert code(gone) == "DBInstanceNotFound"
    until(lambda: rds.describe_db_snapshots(DBSnapshotIdentifier="ledger-h-final")
          ["DBSnapshots"][0]["Status"] == "available", "final snapshot")
    assert rds.describe_db_snapshots(DBInstanceIdentifier="ledger-h",
                                     SnapshotType="automated")["DBSnapshots"] == []
    rds.restore_db_instance_from_db_snapshot(DBInstanceIdentifier="ledger-h2",
                                             DBSnapshotIdentifier="ledger-h-final")
    assert ids(available(rds, "ledger-h2")) == list(range(7))


def test_a_crashed_primary_fails_over_when_multi_az_and_restarts_in_place_otherwise(
        rds: Any, sandbox: Sandbox) -> None:
    plane = sandbox.rds.plane
    multi, single = create(rds, "ledger-i", multi_az=True), create(rds, "ledger-j")
    write(multi, range(10))
    write(single, range(10))
    before = server_port(multi)
    plane.crash(plane.get("ledger-i"))
    plane.crash(plane.get("ledger-j"))
    until(lambda: describe(rds, "ledger-j")["DBInstanceStatus"] == "rebooting",
          "single-AZ restarting")
    until(lambda: not plane.get("ledger-i").busy and not plane.get("ledger-j").busy,
          "both recovered")
    assert server_port(multi) != before and ids(multi) == list(range(10))
    assert ids(available(rds, "ledger-j")) == list(range(10))


def test_losing_the_primary_zone_fails_over_or_leaves_a_single_az_instance_unreachable(
        rds: Any, sandbox: Sandbox) -> None:
    plane = sandbox.rds.plane
    multi, single = create(rds, "ledger-k", multi_az=True), create(rds, "ledger-l")
    write(multi, range(5))
    write(single, range(5))
    plane.get("ledger-l").cut_off()
    plane.get("ledger-l").lose_az()
    with pytest.raises(psycopg.OperationalError):
        ids(single)
    plane.get("ledger-k").cut_off()
    plane.run(plane.get("ledger-k"), "az loss", plane.get("ledger-k").lose_az)
    until(lambda: not plane.get("ledger-k").busy, "failover")
    assert ids(multi) == list(range(5))
    plane.get("ledger-l").heal_az()
    assert ids(single) == list(range(5))


def test_only_postgres_gets_a_server_and_unmodelled_calls_are_the_kits_error(
        rds: Any, sandbox: Sandbox) -> None:
    rds.create_db_instance(DBInstanceIdentifier="other-engine", Engine="mysql",
                           DBInstanceClass="db.t4g.micro", AllocatedStorage=20,
                           MasterUsername="app", MasterUserPassword="not-checked-1")
    assert sandbox.rds.plane.get("other-engine") is None
    assert describe(rds, "other-engine")["Endpoint"]["Address"] != "127.0.0.1"
    assert not sandbox.rds.plane.errors
    with pytest.raises(ClientError):
        rds.stop_db_instance(DBInstanceIdentifier="no-such-instance")
    assert "StopDBInstance is not modelled" in sandbox.rds.plane.errors[0]


# A server's master user is no PostgreSQL superuser, as on RDS ("Understanding the
# rds_superuser role", RDS User Guide: the master user is created "WITH LOGIN NOSUPERUSER";
# "you can't access the host operating system"):
# https://docs.aws.amazon.com/AmazonRDS/latest/UserGuide/Appendix.PostgreSQL.CommonDBATasks.Roles.rds_superuser.html
MASTER_REFUSED = DATABASE_ESCAPES


def test_a_servers_master_user_does_its_job_and_nothing_of_a_superuser(
        rds: Any, sandbox: Sandbox) -> None:
    db = create(rds, "ledger-p", retention=0)
    write(db, range(3))  # creates, writes, reads its tables through the endpoint
    primary = sandbox.rds.plane.get("ledger-p").primary
    with psycopg.connect(url(db), autocommit=True, connect_timeout=5) as conn, \
            primary.connect() as kit:
        for name, statement in MASTER_REFUSED.items():
            with pytest.raises(errors.InsufficientPrivilege):
                conn.execute(statement)
                pytest.fail(f"{name}: accepted")
        with pytest.raises(errors.InsufficientPrivilege):  # the kit's session stays
            conn.execute("select pg_terminate_backend(%s)", (kit.info.backend_pid,))
        assert kit.execute("select 1").fetchone() == (1,)
    # Over TCP nothing logs in without its password: not the master user with another
    # password than the MasterUserPassword it was created with, not the kit's superuser.
    endpoint = f"{db['Endpoint']['Address']}:{db['Endpoint']['Port']}"
    for login in ("app", "app:not-its-password", "postgres",
                  f"postgres:{PLANES[0].password('app')}"):
        with pytest.raises(psycopg.OperationalError,
                           match="no password supplied|password authentication failed"):
            psycopg.connect(f"postgresql://{login}@{endpoint}/ledger", connect_timeout=5)
    # The kit's way in is a socket in a directory of the servers' user alone.
    mode = primary.sockets.stat().st_mode & 0o777
    assert mode == 0o700 and primary.sockets.stat().st_uid == primary.data.stat().st_uid


# MasterUserPassword "can include any printable ASCII character except "/", """, or "@""
# (https://docs.aws.amazon.com/AmazonRDS/latest/APIReference/API_CreateDBInstance.html):
# `%` among them, which a composed statement must not take for a placeholder.
def test_a_master_password_with_percent_signs_creates_the_instance_and_logs_in(
        rds: Any) -> None:
    password = "p%s%y%m%%-1!#$&*()"
    rds.create_db_instance(DBInstanceIdentifier="ledger-pct", Engine="postgres",
                           DBInstanceClass="db.t4g.micro", AllocatedStorage=20,
                           MasterUsername="app", MasterUserPassword=password, DBName="ledger")
    endpoint = available(rds, "ledger-pct")["Endpoint"]
    with psycopg.connect(host=endpoint["Address"], port=endpoint["Port"], user="app",
                         password=password, dbname="ledger", connect_timeout=5) as conn:
        assert conn.execute("select current_user").fetchone() == ("app",)


def test_another_runs_plane_gives_its_users_other_passwords(sandbox: Sandbox) -> None:
    other = DataPlane(sandbox.workdir / "other-plane", sandbox.toxiproxy)
    try:
        assert other.password("app") != sandbox.rds.plane.password("app")
        assert sandbox.rds.plane.password("app") == sandbox.rds.plane.password("app")
    finally:
        other.close()


def test_a_dba_made_user_and_its_member_each_change_only_their_own_password(
        rds: Any, sandbox: Sandbox) -> None:
    """What credential-rotation's prompt says of its two users (kit/run/drill.py's
    `_provision`). PostgreSQL 15, CREATE ROLE: `IN ROLE` adds the new role "as a new member"
    of the role named (it inherits its privileges, those of what it owns among them); ALTER
    ROLE: "Ordinary roles can only change their own password", changing another's needs
    CREATEROLE."""
    db = create(rds, "ledger-u", retention=0)
    instance = sandbox.rds.plane.get("ledger-u")
    instance.add_user("ledger_app", "first-pass-1", "ledger")
    instance.add_user("ledger_app_clone", "first-pass-1", None, member_of="ledger_app")
    endpoint = f"{db['Endpoint']['Address']}:{db['Endpoint']['Port']}"

    def login(user: str, password: str) -> psycopg.Connection:
        return psycopg.connect(f"postgresql://{user}:{password}@{endpoint}/ledger",
                               autocommit=True, connect_timeout=5)

    with login("ledger_app", "first-pass-1") as app:
        app.execute("create table ledger (id int primary key)")
        app.execute("insert into ledger values (1)")
    with login("ledger_app_clone", "first-pass-1") as clone:
        clone.execute("insert into ledger values (2)")  # the first user's table, inherited
        with pytest.raises(errors.InsufficientPrivilege):
            clone.execute("alter role ledger_app with password 'taken-over-3'")
        clone.execute("alter role current_user with password 'second-pass-2'")
    with pytest.raises(psycopg.OperationalError, match="password authentication failed"):
        login("ledger_app_clone", "first-pass-1")
    with login("ledger_app_clone", "second-pass-2") as clone, \
            login("ledger_app", "first-pass-1") as app:
        assert clone.execute("select count(*) from ledger").fetchone() == (2,)
        with pytest.raises(errors.InsufficientPrivilege):
            app.execute("alter role ledger_app_clone with password 'taken-over-3'")
