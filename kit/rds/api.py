"""One handler per RDS action the data plane acts on; each cites the API reference page
whose behaviour it follows (https://docs.aws.amazon.com/AmazonRDS/latest/APIReference/).

A handler checks what the data plane knows (status, backups, the restorable window) and
answers the documented error itself; then it forwards the call to moto, which keeps the
record and checks the rest (a duplicate identifier, deletion protection); on success it
acts on the real servers and rewrites the record moto returned. Calls about instances the
plane does not hold go to moto unchanged.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from kit import aws
from kit.rds import wire
from kit.rds.errors import (
    InvalidDBInstanceState,
    InvalidParameterCombination,
    InvalidParameterValue,
    PointInTimeRestoreNotEnabled,
    RdsError,
)
from kit.rds.instance import DbInstance, Spec
from kit.rds.plane import DataPlane
from kit.rds.wire import Reply, flag, put, text


@dataclass
class Request:
    """One RDS call: its parameters, the plane, moto (the original request, forwarded)."""

    params: dict[str, str]
    plane: DataPlane
    forward: Callable[[], Reply]
    admin: Any  # a boto3 RDS client straight to moto, for the plane's own record keeping
    region: str = aws.REGION  # the Region the call was signed for


def handle(action: str, request: Request) -> Reply:
    """Answer one call: the handler's reply, or the documented error."""
    try:
        return HANDLERS[action](request)
    except RdsError as err:
        return wire.error(err)


def _instance(request: Request, param: str = "DBInstanceIdentifier") -> DbInstance | None:
    name = request.params.get(param, "")
    return request.plane.get(name, request.region) if name else None


def _available(instance: DbInstance, action: str) -> None:
    if instance.status != "available":
        raise InvalidDBInstanceState(f"Instance {instance.identifier} is not in available "
                                     f"state (it is {instance.status}); {action} needs it.")


def _spec(record: Any) -> Spec:
    zones = sorted({zone.text for zone in record.iterfind(
        f".//{{{wire.NS}}}SubnetAvailabilityZone/{{{wire.NS}}}Name") if zone.text})
    return Spec(identifier=(text(record, "DBInstanceIdentifier") or "").lower(),
                region=aws.region_of(text(record, "DBInstanceArn") or ""),
                resource_id=text(record, "DbiResourceId") or "",
                master_username=text(record, "MasterUsername") or "postgres",
                db_name=text(record, "DBName"),
                multi_az=text(record, "MultiAZ") == "true",
                retention_days=int(text(record, "BackupRetentionPeriod") or 0),
                zone=text(record, "AvailabilityZone") or f"{aws.REGION}a",
                zones=tuple(zones))


def rewrite_instance(record: Any, instance: DbInstance) -> None:
    """The fields of a DBInstance record the data plane owns."""
    address, port = instance.endpoint
    put(record, "DBInstanceStatus", instance.status)
    if instance.status == "creating":  # AWS reports no endpoint until it has one
        put(record, "Endpoint", None)
    else:
        put(record, "Endpoint/Address", address)
        put(record, "Endpoint/Port", str(port))
    put(record, "MultiAZ", "true" if instance.spec.multi_az else "false")
    # The primary's zone and, for Multi-AZ only, the standby's (swapped by a failover).
    put(record, "AvailabilityZone", instance.zone)
    put(record, "SecondaryAvailabilityZone",
        instance.secondary_zone if instance.spec.multi_az else None)
    window = instance.window()
    put(record, "LatestRestorableTime", wire.timestamp(window[1]) if window else None)
    put(record, "BackupRetentionPeriod", str(instance.backups.retention_days))
    if instance.source is None:  # never a replica, or promoted: standalone
        put(record, "ReadReplicaSourceDBInstanceIdentifier", None)
    replicas = record.find(f"{{{wire.NS}}}ReadReplicaDBInstanceIdentifiers")
    if replicas is not None:  # moto keeps listing promoted replicas; AWS does not
        held = {(r.spec.region, r.identifier) for r in instance.replicas}
        for entry in list(replicas):
            name = entry.text or ""
            region = aws.region_of(name) if name.startswith("arn:") else instance.spec.region
            if (region, name.rsplit(":", 1)[-1].lower()) not in held:
                replicas.remove(entry)


def _rewritten(reply: Reply, plane: DataPlane) -> Reply:
    """moto's reply with every DBInstance and DBSnapshot record the plane holds rewritten."""
    status, headers, body = reply
    if not 200 <= status < 300:
        return reply
    root = wire.parse(body)
    for record in wire.records(root, "DBInstance"):
        instance = plane.get(text(record, "DBInstanceArn")
                             or text(record, "DBInstanceIdentifier") or "")
        if instance is not None:
            rewrite_instance(record, instance)
    for record in wire.records(root, "DBSnapshot"):
        known = plane.snapshots.status(text(record, "DBSnapshotIdentifier") or "") \
            if plane.snapshots else None
        if known is not None:
            put(record, "Status", known)
    return status, headers, wire.serialize(root)


def _created(reply: Reply) -> Spec | None:
    status, _, body = reply
    if not 200 <= status < 300:
        return None
    return _spec(wire.records(wire.parse(body), "DBInstance")[0])


def create_db_instance(request: Request) -> Reply:
    """CreateDBInstance (API_CreateDBInstance.html): `creating` until its server runs
    (with a standby when MultiAZ, and a first automated backup when BackupRetentionPeriod
    is above 0), then `available`. Only engine postgres gets a server: another engine stays
    a record with no database behind it."""
    reply = request.forward()
    spec = _created(reply)
    if spec is None or request.params.get("Engine", "").lower() != "postgres":
        return reply
    instance = request.plane.create(
        replace(spec, master_password=request.params.get("MasterUserPassword") or None))
    _automated_snapshots(request, instance)
    return _rewritten(reply, request.plane)


def _automated_snapshots(request: Request, instance: DbInstance) -> None:
    """moto records an automated snapshot for every new instance; AWS has one only when
    automated backups are on (RDS User Guide, "Introduction to backups")."""
    found = request.admin.describe_db_snapshots(
        DBInstanceIdentifier=instance.identifier, SnapshotType="automated")["DBSnapshots"]
    for snap in found:
        if instance.backups.enabled:
            request.plane.automated_snapshot(instance, snap["DBSnapshotIdentifier"])
        else:
            request.admin.delete_db_snapshot(DBSnapshotIdentifier=snap["DBSnapshotIdentifier"])


def describe(request: Request) -> Reply:
    """DescribeDBInstances (API_DescribeDBInstances.html), DescribeDBSnapshots
    (API_DescribeDBSnapshots.html): moto's records with the plane's status, endpoint,
    Multi-AZ, zones (API_DBInstance.html: AvailabilityZone, and SecondaryAvailabilityZone
    "if present, specifies the name of the secondary Availability Zone for a DB instance
    with multi-AZ support") and LatestRestorableTime ("the latest time to which a database
    in this DB instance can be restored with point-in-time restore"; absent without backups)."""
    return _rewritten(request.forward(), request.plane)


def reboot_db_instance(request: Request) -> Reply:
    """RebootDBInstance (API_RebootDBInstance.html): "a momentary outage, during which the
    DB instance status is set to rebooting"; with ForceFailover "the reboot is conducted
    through a Multi-AZ failover", which an instance without Multi-AZ cannot do."""
    instance = _instance(request)
    if instance is None:
        return request.forward()
    _available(instance, "RebootDBInstance")
    force = bool(flag(request.params, "ForceFailover"))
    if force and not instance.spec.multi_az:
        raise InvalidParameterCombination("You can't enable force failover if the instance "
                                          "isn't configured for Multi-AZ.")
    reply = request.forward()
    if 200 <= reply[0] < 300:
        instance.status = "rebooting"
        request.plane.run(instance, "reboot", instance.reboot, force)
    return _rewritten(reply, request.plane)


def create_db_snapshot(request: Request) -> Reply:
    """CreateDBSnapshot (API_CreateDBSnapshot.html): the instance must be available
    (InvalidDBInstanceState); the snapshot is `creating` until its data is copied."""
    instance = _instance(request)
    if instance is None:
        return request.forward()
    _available(instance, "CreateDBSnapshot")
    reply = request.forward()
    if 200 <= reply[0] < 300:
        request.plane.snapshot(instance, request.params["DBSnapshotIdentifier"])
    return _rewritten(reply, request.plane)


def _restored(request: Request, reply: Reply) -> tuple[Spec | None, Reply]:
    """The new instance of a restore, with the settings the request gives it.

    AWS creates a restored instance "as a single-AZ deployment" unless MultiAZ says
    otherwise, and with deletion protection only when DeletionProtection says so; moto
    copies both from the source instead, so its record is corrected here.
    """
    spec = _created(reply)
    if spec is None:
        return None, reply
    multi_az = bool(flag(request.params, "MultiAZ"))
    protected = bool(flag(request.params, "DeletionProtection"))
    request.admin.modify_db_instance(DBInstanceIdentifier=spec.identifier, MultiAZ=multi_az,
                                     DeletionProtection=protected, ApplyImmediately=True)
    root = wire.parse(reply[2])
    put(wire.records(root, "DBInstance")[0], "DeletionProtection",
        "true" if protected else "false")
    return replace(spec, multi_az=multi_az), (reply[0], reply[1], wire.serialize(root))


def restore_from_snapshot(request: Request) -> Reply:
    """RestoreDBInstanceFromDBSnapshot (API_RestoreDBInstanceFromDBSnapshot.html): a new
    instance, with a new endpoint, holding the snapshot's data; the snapshot must exist
    (DBSnapshotNotFound) and be available (InvalidDBSnapshotState)."""
    assert request.plane.snapshots is not None
    snap = request.plane.snapshots.usable(request.params.get("DBSnapshotIdentifier", ""))
    spec, reply = _restored(request, request.forward())
    if spec is not None:
        instance = request.plane.restore_snapshot(spec, snap)
        _automated_snapshots(request, instance)
    return _rewritten(reply, request.plane)


def restore_to_point_in_time(request: Request) -> Reply:
    """RestoreDBInstanceToPointInTime (API_RestoreDBInstanceToPointInTime.html): a new
    instance, with a new endpoint, holding every transaction the source committed at or
    before RestoreTime ("Must be before the latest restorable time for the DB instance",
    and within BackupRetentionPeriod days), or at LatestRestorableTime with
    UseLatestRestorableTime ("Can't be specified if the RestoreTime parameter is
    provided"); a source with BackupRetentionPeriod 0 answers PointInTimeRestoreNotEnabled."""
    params = request.params
    source = _instance(request, "SourceDBInstanceIdentifier") or next(
        (i for i in request.plane.instances.values()
         if i.spec.resource_id == params.get("SourceDbiResourceId")), None)
    if source is None:
        return request.forward()
    latest = flag(params, "UseLatestRestorableTime")
    if latest and params.get("RestoreTime"):
        raise InvalidParameterCombination("Cannot specify both RestoreTime and "
                                          "UseLatestRestorableTime.")
    if not source.backups.enabled:
        raise PointInTimeRestoreNotEnabled(
            f"Point-in-time restore is not enabled for DB instance {source.identifier}: its "
            "BackupRetentionPeriod is 0.")
    window = source.window()
    if window is None:
        raise InvalidDBInstanceState(f"DB instance {source.identifier} has no automated "
                                     "backup yet to restore from.")
    if not latest and not params.get("RestoreTime"):
        raise InvalidParameterCombination("Specify RestoreTime or UseLatestRestorableTime.")
    try:
        when = window[1] if latest else wire.parse_time(params["RestoreTime"])
    except ValueError:
        raise InvalidParameterValue(f"RestoreTime {params['RestoreTime']!r} is not an "
                                    "ISO 8601 timestamp.") from None
    if not window[0] <= when <= window[1]:
        raise InvalidParameterValue(
            f"RestoreTime {wire.timestamp(when)} is outside the restorable window of "
            f"{source.identifier}: from {wire.timestamp(window[0])} (EarliestRestorableTime, "
            f"BackupRetentionPeriod {source.backups.retention_days} days) to "
            f"{wire.timestamp(window[1])} (LatestRestorableTime).")
    spec, reply = _restored(request, request.forward())
    if spec is not None:
        instance = request.plane.restore_to_time(spec, source, when)
        _automated_snapshots(request, instance)
    return _rewritten(reply, request.plane)


def delete_db_instance(request: Request) -> Reply:
    """DeleteDBInstance (API_DeleteDBInstance.html): refused while DeletionProtection is
    on (moto answers that); a final snapshot unless SkipFinalSnapshot ("The
    FinalDBSnapshotIdentifier parameter must be specified if SkipFinalSnapshot is
    disabled"; both together "results in an error"); automated backups go unless
    DeleteAutomatedBackups is false; the status is `deleting` until the instance is gone."""
    instance = _instance(request)
    if instance is None:
        return request.forward()
    skip = bool(flag(request.params, "SkipFinalSnapshot"))
    final = request.params.get("FinalDBSnapshotIdentifier")
    if not skip and not final:
        raise InvalidParameterCombination("FinalDBSnapshotIdentifier is required unless "
                                          "SkipFinalSnapshot is specified.")
    if skip and final:
        raise InvalidParameterCombination("FinalDBSnapshotIdentifier can't be specified "
                                          "together with SkipFinalSnapshot.")
    if instance.status == "deleting":
        raise InvalidDBInstanceState(f"Instance {instance.identifier} is already being "
                                     "deleted.")
    if instance.replicas:
        request.plane.errors.append("DeleteDBInstance of a source of read replicas (they "
                                    "would be promoted) is not modelled by the kit's data "
                                    "plane (kit/rds)")
    reply = request.forward()
    if 200 <= reply[0] < 300:
        drop = flag(request.params, "DeleteAutomatedBackups") is not False
        request.plane.delete(instance, None if skip else final, drop)
    return _rewritten(reply, request.plane)


def create_read_replica(request: Request) -> Reply:
    """CreateDBInstanceReadReplica (API_CreateDBInstanceReadReplica.html): a new instance,
    in the Region the call is sent to, streaming asynchronously from its source (named by
    identifier, or by ARN from another Region). "Your source DB instance or cluster must
    have backup retention enabled"; "RDS creates read replicas with backups disabled"; a
    replica is single-AZ unless MultiAZ says otherwise: "Specifies whether the read replica
    is in a Multi-AZ deployment", a replica with a standby of its own, in another zone of
    the replica's Region (same or cross Region), which a failover makes the replica."""
    source = _instance(request, "SourceDBInstanceIdentifier")
    if source is None:
        return request.forward()
    _available(source, "CreateDBInstanceReadReplica")
    if not source.backups.enabled:
        raise InvalidDBInstanceState(
            f"Automated backups are not enabled for DB instance {source.identifier}: a read "
            "replica needs its source's BackupRetentionPeriod above 0.")
    multi_az = bool(flag(request.params, "MultiAZ"))
    reply = request.forward()
    spec = _created(reply)
    if spec is not None:  # moto copies the source's zone, Multi-AZ and retention
        zone = request.params.get("AvailabilityZone") or f"{spec.region}a"
        request.plane.replicate(replace(spec, zone=zone, zones=(), multi_az=multi_az,
                                        retention_days=0), source)
    return _rewritten(reply, request.plane)


def promote_read_replica(request: Request) -> Reply:
    """PromoteReadReplica (API_PromoteReadReplica.html): a read replica becomes a
    standalone DB instance, writable, with BackupRetentionPeriod days of automated backups
    ("Default: 1"; "Must be a value from 0 to 35"); the identifier "must match the
    identifier of an existing read replica DB instance" (InvalidDBInstanceState)."""
    instance = _instance(request)
    if instance is None:
        return request.forward()
    if instance.source is None:
        raise InvalidDBInstanceState(f"DB Instance {instance.identifier} is not a read "
                                     "replica.")
    _available(instance, "PromoteReadReplica")
    retention = int(request.params.get("BackupRetentionPeriod", "1"))
    if not 0 <= retention <= 35:
        raise InvalidParameterValue(f"BackupRetentionPeriod {retention} is not from 0 to 35.")
    reply = request.forward()
    if 200 <= reply[0] < 300:
        instance.status = "modifying"
        request.plane.run(instance, "promote", instance.promote, retention)
    return _rewritten(reply, request.plane)


def modify_db_instance(request: Request) -> Reply:
    """ModifyDBInstance (API_ModifyDBInstance.html), for what drills change: the instance
    must be available (InvalidDBInstanceState); BackupRetentionPeriod turns automated
    backups on or off, MultiAZ adds or removes the standby; DeletionProtection is moto's
    record. Changes apply at once, as with ApplyImmediately."""
    instance = _instance(request)
    if instance is None:
        return request.forward()
    _available(instance, "ModifyDBInstance")
    if request.params.get("NewDBInstanceIdentifier"):
        request.plane.errors.append("ModifyDBInstance with NewDBInstanceIdentifier (a rename) "
                                    "is not modelled by the kit's data plane (kit/rds)")
    reply = request.forward()
    if not 200 <= reply[0] < 300:
        return reply
    changes: dict[str, Any] = {}
    if "BackupRetentionPeriod" in request.params:
        changes["retention_days"] = int(request.params["BackupRetentionPeriod"])
    multi_az = flag(request.params, "MultiAZ")
    if multi_az is not None and multi_az != instance.spec.multi_az:
        changes["multi_az"] = multi_az
    if changes:
        instance.status = "modifying"
        request.plane.run(instance, "modify", instance.modify, changes)
    return _rewritten(reply, request.plane)


# Calls that would change what the data plane holds in ways it does not model: a run that
# makes one is the kit's error, naming the call, never the solution's verdict.
UNMODELLED = frozenset({
    "StopDBInstance", "StartDBInstance",
    "RestoreDBInstanceFromS3", "SwitchoverReadReplica", "CreateDBCluster",
    "RestoreDBClusterToPointInTime", "RestoreDBClusterFromSnapshot", "FailoverDBCluster"})

HANDLERS: dict[str, Callable[[Request], Reply]] = {
    "CreateDBInstance": create_db_instance,
    "DescribeDBInstances": describe,
    "DescribeDBSnapshots": describe,
    "RebootDBInstance": reboot_db_instance,
    "CreateDBSnapshot": create_db_snapshot,
    "RestoreDBInstanceFromDBSnapshot": restore_from_snapshot,
    "RestoreDBInstanceToPointInTime": restore_to_point_in_time,
    "DeleteDBInstance": delete_db_instance,
    "ModifyDBInstance": modify_db_instance,
    "CreateDBInstanceReadReplica": create_read_replica,
    "PromoteReadReplica": promote_read_replica,
}
