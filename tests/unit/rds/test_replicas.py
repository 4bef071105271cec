"""Read replicas in the RDS handlers: the checks answered before moto sees the call, each
Region's instances apart, and the replica links the plane rewrites in moto's records
(RDS API reference: CreateDBInstanceReadReplica, PromoteReadReplica, DBInstance)."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import replace

from kit.rds import api
from kit.rds.front import region
from kit.rds.wire import NS

from .builders import Moto, describe_reply, error_of, instance, plane, request


def call(action: str, the_plane, moto: Moto, region: str = "us-east-1", **params: str):
    return api.handle(action, replace(request(the_plane, moto, **params), region=region))


def replica_of(tmp_path, source, identifier: str = "ledger", region: str = "us-west-2"):
    (tmp_path / region).mkdir(exist_ok=True)
    made = instance(tmp_path / region, identifier=identifier, retention=0)
    made.spec = replace(made.spec, region=region)
    made.source = source
    source.replicas.append(made)
    return made


def test_a_replica_needs_a_source_with_backups(tmp_path):
    # API_CreateDBInstanceReadReplica: "Your source DB instance or cluster must have backup
    # retention enabled."
    moto = Moto()
    reply = call("CreateDBInstanceReadReplica", plane(tmp_path, instance(tmp_path, retention=0)),
                 moto, region="us-west-2", DBInstanceIdentifier="ledger-dr",
                 SourceDBInstanceIdentifier="arn:aws:rds:us-east-1:123456789012:db:ledger")
    status, code, message = error_of(reply)
    assert (status, code) == (400, "InvalidDBInstanceState") and "backup" in message.lower()
    assert moto.calls == 0


def test_a_replica_needs_an_available_source(tmp_path):
    moto = Moto()
    reply = call("CreateDBInstanceReadReplica",
                 plane(tmp_path, instance(tmp_path, status="rebooting")), moto,
                 DBInstanceIdentifier="ledger-r", SourceDBInstanceIdentifier="ledger")
    assert error_of(reply)[:2] == (400, "InvalidDBInstanceState")
    assert moto.calls == 0


def test_only_a_read_replica_can_be_promoted(tmp_path):
    # API_PromoteReadReplica, DBInstanceIdentifier: "Must match the identifier of an
    # existing read replica DB instance"; Errors: InvalidDBInstanceState.
    moto = Moto()
    reply = call("PromoteReadReplica", plane(tmp_path, instance(tmp_path)), moto,
                 DBInstanceIdentifier="ledger")
    status, code, message = error_of(reply)
    assert (status, code) == (400, "InvalidDBInstanceState") and "read replica" in message
    assert moto.calls == 0


def test_promotion_keeps_backup_retention_within_0_to_35(tmp_path):
    # API_PromoteReadReplica, BackupRetentionPeriod: "Must be a value from 0 to 35."
    source = instance(tmp_path)
    the_plane = plane(tmp_path, source, replica_of(tmp_path, source))
    moto = Moto()
    reply = call("PromoteReadReplica", the_plane, moto, region="us-west-2",
                 DBInstanceIdentifier="ledger", BackupRetentionPeriod="36")
    assert error_of(reply)[:2] == (400, "InvalidParameterValue")
    assert moto.calls == 0


def test_the_same_identifier_in_two_regions_is_two_instances(tmp_path):
    # DBInstanceIdentifier is unique per account and Region: a call in us-east-1 about
    # `ledger` is about the source, in us-west-2 about its replica.
    source = instance(tmp_path, status="rebooting")
    the_plane = plane(tmp_path, source, replica_of(tmp_path, source))
    assert the_plane.get("ledger") is source
    assert the_plane.get("ledger", "us-west-2") is not source
    assert the_plane.get("arn:aws:rds:us-west-2:123456789012:db:ledger").source is source
    moto = Moto()
    east = call("PromoteReadReplica", the_plane, moto, DBInstanceIdentifier="ledger")
    assert "not a read replica" in error_of(east)[2]


def record(identifier: str, region: str, source: str | None = None,
           replicas: tuple[str, ...] = ()) -> str:
    """A DBInstance record as moto keeps it, replica links included."""
    links = "".join(f"<ReadReplicaDBInstanceIdentifier>{r}</ReadReplicaDBInstanceIdentifier>"
                    for r in replicas)
    upstream = (f"<ReadReplicaSourceDBInstanceIdentifier>{source}"
                "</ReadReplicaSourceDBInstanceIdentifier>") if source else ""
    return (f"<DBInstance><DBInstanceIdentifier>{identifier}</DBInstanceIdentifier>"
            f"<DBInstanceArn>arn:aws:rds:{region}:123456789012:db:{identifier}</DBInstanceArn>"
            f"<DBInstanceStatus>available</DBInstanceStatus><BackupRetentionPeriod>7"
            f"</BackupRetentionPeriod>{upstream}"
            f"<ReadReplicaDBInstanceIdentifiers>{links}</ReadReplicaDBInstanceIdentifiers>"
            "<Engine>postgres</Engine></DBInstance>")


def links(reply, region: str) -> tuple[str | None, list[str], str | None]:
    root = ET.fromstring(reply[2])
    found = next(r for r in root.iter(f"{{{NS}}}DBInstance")
                 if region in (r.findtext(f"{{{NS}}}DBInstanceArn") or ""))
    return (found.findtext(f"{{{NS}}}ReadReplicaSourceDBInstanceIdentifier"),
            [e.text or "" for e in found.iter(f"{{{NS}}}ReadReplicaDBInstanceIdentifier")],
            found.findtext(f"{{{NS}}}BackupRetentionPeriod"))


def test_a_promoted_replica_is_no_longer_linked_to_its_source(tmp_path):
    # API_DBInstance: ReadReplicaSourceDBInstanceIdentifier "Contains the identifier of the
    # source DB instance if this DB instance is a read replica"; ReadReplicaDBInstance-
    # Identifiers "Contains one or more identifiers of the read replicas associated with
    # this DB instance". moto keeps both links after PromoteReadReplica, and reports the
    # source's BackupRetentionPeriod for a replica ("created with backups disabled").
    east_arn = "arn:aws:rds:us-east-1:123456789012:db:ledger"
    west_arn = "arn:aws:rds:us-west-2:123456789012:db:ledger"
    source = instance(tmp_path, retention=7)
    replica = replica_of(tmp_path, source)
    the_plane = plane(tmp_path, source, replica)
    moto = Moto(describe_reply(record("ledger", "us-east-1", replicas=(west_arn,)),
                               record("ledger", "us-west-2", source=east_arn)))
    linked = call("DescribeDBInstances", the_plane, moto)
    assert links(linked, "us-east-1") == (None, [west_arn], "7")
    assert links(linked, "us-west-2") == (east_arn, [], "0")
    source.replicas.remove(replica)
    replica.source = None
    apart = call("DescribeDBInstances", the_plane, moto)
    assert links(apart, "us-east-1")[:2] == (None, [])
    assert links(apart, "us-west-2")[:2] == (None, [])


def test_the_region_of_a_call_is_its_signatures():
    auth = ("AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20261203/us-west-2/rds/aws4_request, "
            "SignedHeaders=host;x-amz-date, Signature=abc")
    assert region({"Authorization": auth}, {}) == "us-west-2"
    assert region({}, {"X-Amz-Credential": "AKID/20261203/eu-west-1/rds/aws4_request"}) \
        == "eu-west-1"
    assert region({}, {}) == "us-east-1"


def test_a_multi_az_replica_is_not_the_kits_error(tmp_path):
    # API_CreateDBInstanceReadReplica, MultiAZ: "Specifies whether the read replica is in a
    # Multi-AZ deployment" (same or cross Region): AWS accepts it, so the run goes on to a
    # verdict (the plane gives the replica a standby: tests/integration/test_rds_replicas.py).
    the_plane = plane(tmp_path, instance(tmp_path))
    moto = Moto()
    call("CreateDBInstanceReadReplica", the_plane, moto, region="us-west-2",
         DBInstanceIdentifier="ledger-dr", MultiAZ="true",
         SourceDBInstanceIdentifier="arn:aws:rds:us-east-1:123456789012:db:ledger")
    assert moto.calls == 1 and the_plane.errors == []
