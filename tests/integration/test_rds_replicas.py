"""Read replicas on the RDS data plane against real servers, through the front: a replica
in another Region streams from its source, follows its failovers, keeps what it received
when its source's Region is cut off, and is promoted to a standalone, writable instance
(RDS User Guide, "Working with DB instance read replicas", "Creating a read replica in a
different AWS Region"; RDS API reference, CreateDBInstanceReadReplica, PromoteReadReplica).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
from botocore.exceptions import ClientError
from psycopg import errors

from kit import aws
from kit.run.sandbox import Sandbox
from tests.integration import test_rds_plane
from tests.integration.test_rds_plane import (
    TIMINGS,
    available,
    code,
    create,
    describe,
    ids,
    server_port,
    until,
    url,
    write,
)

WEST = "us-west-2"
sandbox = test_rds_plane.sandbox  # the module's sandbox fixture, as test_rds_plane's


@pytest.fixture
def regions(sandbox: Sandbox) -> Iterator[tuple[Any, Any]]:
    sandbox.moto.reset()
    sandbox.rds.plane.enable(TIMINGS)
    try:
        yield aws.client("rds", sandbox.rds.url), aws.client("rds", sandbox.rds.url,
                                                             region=WEST)
    finally:
        sandbox.rds.plane.reset()
        sandbox.toxiproxy.reset()


def test_a_cross_region_replica_streams_follows_a_failover_and_is_promoted(
        regions: tuple[Any, Any], sandbox: Sandbox) -> None:
    east, west = regions
    source = create(east, "ledger-x", multi_az=True)
    write(source, range(0, 5))
    # The same identifier in another Region is another instance (identifiers are unique
    # per account and Region), named by its source's ARN.
    west.create_db_instance_read_replica(DBInstanceIdentifier="ledger-x",
                                         SourceDBInstanceIdentifier=source["DBInstanceArn"])
    replica = available(west, "ledger-x")
    assert replica["Endpoint"]["Port"] != source["Endpoint"]["Port"]
    # "RDS creates read replicas with backups disabled"; in its own Region; single-AZ.
    assert (replica["BackupRetentionPeriod"], replica["MultiAZ"]) == (0, False)
    assert replica["AvailabilityZone"].startswith(WEST)
    assert replica["ReadReplicaSourceDBInstanceIdentifier"] == source["DBInstanceArn"]
    assert describe(east, "ledger-x")["ReadReplicaDBInstanceIdentifiers"] == [
        replica["DBInstanceArn"]]
    until(lambda: ids(replica) == list(range(5)), "the replica has the source's rows")
    with pytest.raises(errors.ReadOnlySqlTransaction):  # a replica is read-only
        write(replica, range(100, 101))

    east.reboot_db_instance(DBInstanceIdentifier="ledger-x", ForceFailover=True)
    write(available(east, "ledger-x"), range(5, 8))
    until(lambda: ids(replica) == list(range(8)), "the replica follows the new primary")

    sandbox.rds.plane.get("ledger-x", WEST).cut_replication()
    write(source, range(8, 10))  # never shipped: the source's Region is cut off
    with pytest.raises(ClientError) as refused:
        east.promote_read_replica(DBInstanceIdentifier="ledger-x")
    assert code(refused) == "InvalidDBInstanceState"

    west.promote_read_replica(DBInstanceIdentifier="ledger-x", BackupRetentionPeriod=3)
    assert describe(west, "ledger-x")["DBInstanceStatus"] == "modifying"
    promoted = available(west, "ledger-x")
    assert ids(promoted) == list(range(8))
    write(promoted, range(10, 12))  # standalone: writable
    assert ids(promoted) == [*range(8), 10, 11]
    assert promoted["BackupRetentionPeriod"] == 3
    assert "ReadReplicaSourceDBInstanceIdentifier" not in promoted
    assert describe(east, "ledger-x").get("ReadReplicaDBInstanceIdentifiers", []) == []
    until(lambda: "LatestRestorableTime" in describe(west, "ledger-x"),
          "the promoted instance's automated backups")
    with psycopg.connect(url(source), autocommit=True) as conn:  # the source is unchanged
        assert conn.execute("select count(*) from t").fetchone()[0] == 10


def test_a_source_without_backups_has_no_replica(regions: tuple[Any, Any]) -> None:
    east, west = regions
    source = create(east, "ledger-y", retention=0)
    with pytest.raises(ClientError) as refused:
        west.create_db_instance_read_replica(
            DBInstanceIdentifier="ledger-y-dr", SourceDBInstanceIdentifier=source["DBInstanceArn"])
    assert code(refused) == "InvalidDBInstanceState"


def test_a_lost_region_cuts_its_instances_and_its_replicas_stream_until_it_returns(
        regions: tuple[Any, Any], sandbox: Sandbox) -> None:
    east, west = regions
    plane = sandbox.rds.plane
    source = create(east, "ledger-z", multi_az=True)
    write(source, range(0, 3))
    west.create_db_instance_read_replica(DBInstanceIdentifier="ledger-z-dr",
                                         SourceDBInstanceIdentifier=source["DBInstanceArn"])
    replica = available(west, "ledger-z-dr")
    until(lambda: ids(replica) == list(range(3)), "the replica has the source's rows")
    cut = plane.cut_region("us-east-1")
    assert [i.identifier for i in cut] == ["ledger-z"]
    with pytest.raises(psycopg.OperationalError):  # nothing in the Region answers,
        ids(source)
    assert describe(east, "ledger-z")["DBInstanceStatus"] == "available"  # no failover
    # What commits there now (the kit's own socket: no client reaches it) never ships.
    with psycopg.connect(plane.get("ledger-z").primary.dsn("ledger"), autocommit=True) as conn:
        conn.execute("insert into t values (3)")
    assert ids(replica) == list(range(3))
    plane.heal_region(cut)
    assert ids(source) == list(range(4))
    write(source, range(4, 6))  # the old primary is writable again: what split brain needs
    until(lambda: ids(replica) == list(range(6)), "the replica streams again")


@pytest.mark.parametrize("region", ["us-east-1", WEST])
def test_a_multi_az_replica_has_a_standby_that_a_failover_makes_the_replica(
        regions: tuple[Any, Any], sandbox: Sandbox, region: str) -> None:
    # API_CreateDBInstanceReadReplica, MultiAZ: "Specifies whether the read replica is in a
    # Multi-AZ deployment", in the same Region as its source or another; RebootDBInstance
    # with ForceFailover fails it over to its standby, and it stays a read replica.
    east, west = regions
    rds = east if region == "us-east-1" else west
    source = create(east, "ledger-m", multi_az=True)
    write(source, range(0, 3))
    rds.create_db_instance_read_replica(DBInstanceIdentifier="ledger-m-r", MultiAZ=True,
                                        SourceDBInstanceIdentifier=source["DBInstanceArn"])
    replica = available(rds, "ledger-m-r")
    assert replica["MultiAZ"] is True and replica["AvailabilityZone"].startswith(region)
    assert replica["SecondaryAvailabilityZone"] != replica["AvailabilityZone"]
    assert sandbox.rds.plane.errors == []
    until(lambda: ids(replica) == list(range(3)), "the replica has the source's rows")
    before = server_port(replica)

    rds.reboot_db_instance(DBInstanceIdentifier="ledger-m-r", ForceFailover=True)
    replica = available(rds, "ledger-m-r")
    assert server_port(replica) != before  # its standby is the replica now
    write(source, range(3, 6))
    until(lambda: ids(replica) == list(range(6)), "the new replica streams from the source")
    with pytest.raises(errors.ReadOnlySqlTransaction):  # still a replica
        write(replica, range(100, 101))
