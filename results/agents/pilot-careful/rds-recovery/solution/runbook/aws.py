"""Thin, time-bounded wrappers over the RDS and Secrets Manager calls the
operator role is allowed to make."""

from __future__ import annotations

import json
import time

import boto3
from botocore.config import Config
from botocore.exceptions import BotoCoreError, ClientError

from .context import log, remaining

# Every call is short: a hung connection must not eat the 90 s budget.
# Worst case per call: 3 attempts x (2 s connect + 3 s read) + backoff.
_CONFIG = Config(
    connect_timeout=2,
    read_timeout=3,
    retries={"max_attempts": 3, "mode": "standard"},
)

_session = boto3.session.Session()
rds = _session.client("rds", config=_CONFIG)
secrets = _session.client("secretsmanager", config=_CONFIG)

# Statuses in which an instance serves connections.
SERVING = {"available", "backing-up", "configuring-log-exports", "storage-optimization"}
# Statuses from which an instance will not come back by itself.
LOST = {"failed", "deleting", "deleted", "restore-error", "incompatible-restore",
        "incompatible-network", "inaccessible-encryption-credentials"}


def error_code(exc: Exception) -> str:
    if isinstance(exc, ClientError):
        return exc.response.get("Error", {}).get("Code", "")
    return type(exc).__name__


# ------------------------------------------------------------------ instances

def describe(identifier: str) -> dict | None:
    """The instance, or None if it does not exist. Transient errors raise."""
    try:
        found = rds.describe_db_instances(DBInstanceIdentifier=identifier)["DBInstances"]
    except ClientError as exc:
        if error_code(exc) == "DBInstanceNotFound":
            return None
        raise
    return found[0] if found else None


def try_describe(identifier: str) -> tuple[bool, dict | None]:
    """(call succeeded, instance or None). Never raises."""
    try:
        return True, describe(identifier)
    except (ClientError, BotoCoreError) as exc:
        log(f"describe {identifier} failed: {error_code(exc)}: {exc}")
        return False, None


def instances_named_after(base: str) -> list[dict]:
    out = []
    try:
        for page in rds.get_paginator("describe_db_instances").paginate():
            for inst in page["DBInstances"]:
                ident = inst["DBInstanceIdentifier"]
                if ident == base or ident.startswith(base + "-"):
                    out.append(inst)
    except (ClientError, BotoCoreError) as exc:
        log(f"listing instances failed: {error_code(exc)}: {exc}")
    return out


def endpoint(inst: dict | None) -> tuple[str, int] | None:
    ep = (inst or {}).get("Endpoint") or {}
    if ep.get("Address"):
        return ep["Address"], int(ep.get("Port") or inst.get("DbInstancePort") or 5432)
    return None


def summary(inst: dict | None) -> str:
    if not inst:
        return "not found"
    ep = endpoint(inst)
    return (f"{inst['DBInstanceIdentifier']} status={inst.get('DBInstanceStatus')} "
            f"multi_az={inst.get('MultiAZ')} az={inst.get('AvailabilityZone')}"
            f"/{inst.get('SecondaryAvailabilityZone')} "
            f"deletion_protection={inst.get('DeletionProtection')} "
            f"endpoint={ep[0] + ':' + str(ep[1]) if ep else None}")


def wait(identifier: str, done, budget: float, interval: float = 1.0) -> dict | None:
    """Poll until done(inst) (inst may be None) or the budget runs out.

    Returns the last instance seen (None if never seen)."""
    end = time.monotonic() + max(0.0, min(budget, remaining()))
    last = None
    last_status = object()
    while True:
        ok, inst = try_describe(identifier)
        if ok:
            last = inst
            status = inst.get("DBInstanceStatus") if inst else None
            if status != last_status:
                log(summary(inst))
                last_status = status
            if done(inst):
                return inst
        if time.monotonic() + interval > end:
            return last
        time.sleep(interval)


# -------------------------------------------------------------------- secrets

def read_secret(arn: str) -> dict:
    value = secrets.get_secret_value(SecretId=arn)["SecretString"]
    return json.loads(value)


def point_secret(arn: str, current: dict, host: str, port: int, inst: dict | None) -> dict:
    """Make the secret's AWSCURRENT value name host:port. Returns the value."""
    value = {
        "host": host,
        "port": int(port),
        "username": current.get("username") or (inst or {}).get("MasterUsername"),
        "dbname": current.get("dbname") or (inst or {}).get("DBName"),
    }
    if {k: current.get(k) for k in value} == value:
        log(f"secret already names {host}:{port}")
        return current
    secrets.put_secret_value(SecretId=arn, SecretString=json.dumps(value))
    log(f"secret now names {host}:{port}")
    return value


# ------------------------------------------------------------------- restores

def _supported(operation: str, args: dict) -> dict:
    """Drop None values and parameters this botocore does not know (older
    SDKs lack e.g. BackupRetentionPeriod on restores)."""
    members = rds.meta.service_model.operation_model(operation).input_shape.members
    dropped = [k for k, v in args.items() if v is not None and k not in members]
    if dropped:
        log(f"{operation}: SDK does not support {dropped}; leaving them out")
    return {k: v for k, v in args.items() if v is not None and k in members}


def _placement(src: dict) -> dict:
    """Settings a restored instance must share with its source: RDS does not
    carry them over by itself (it would pick the default VPC/parameter group,
    Single-AZ, 1-day backups, no deletion protection)."""
    subnet_group = (src.get("DBSubnetGroup") or {}).get("DBSubnetGroupName")
    params = [g["DBParameterGroupName"] for g in src.get("DBParameterGroups", [])]
    options = [g["OptionGroupName"] for g in src.get("OptionGroupMemberships", [])]
    ep = endpoint(src)
    return {
        "DBInstanceClass": src.get("DBInstanceClass"),
        "Port": ep[1] if ep else src.get("DbInstancePort") or None,
        "DBSubnetGroupName": subnet_group,
        "VpcSecurityGroupIds": [g["VpcSecurityGroupId"] for g in src.get("VpcSecurityGroups", [])
                                if g.get("Status", "active") == "active"] or None,
        "PubliclyAccessible": src.get("PubliclyAccessible"),
        "MultiAZ": True,
        "DeletionProtection": True,
        "AutoMinorVersionUpgrade": src.get("AutoMinorVersionUpgrade"),
        "StorageType": src.get("StorageType"),
        "CopyTagsToSnapshot": src.get("CopyTagsToSnapshot"),
        "EnableIAMDatabaseAuthentication": src.get("IAMDatabaseAuthenticationEnabled"),
        "EnableCloudwatchLogsExports": src.get("EnabledCloudwatchLogsExports") or None,
        "BackupRetentionPeriod": max(int(src.get("BackupRetentionPeriod") or 0), 7),
        "PreferredBackupWindow": src.get("PreferredBackupWindow"),
        # Default groups are what RDS picks anyway; naming them would only
        # need extra permissions.
        "DBParameterGroupName": params[0] if params and not params[0].startswith("default.") else None,
        "OptionGroupName": options[0] if options and not options[0].startswith("default:") else None,
    }


def restore_to_time(src: dict, target: str, when=None, source_ref: dict | None = None) -> None:
    """RestoreDBInstanceToPointInTime; when=None means latest restorable."""
    args = dict(_placement(src))
    args["MaxAllocatedStorage"] = src.get("MaxAllocatedStorage")
    args.update(source_ref or {"SourceDBInstanceIdentifier": src["DBInstanceIdentifier"]})
    args["TargetDBInstanceIdentifier"] = target
    if when is None:
        args["UseLatestRestorableTime"] = True
    else:
        args["RestoreTime"] = when
    args = _supported("RestoreDBInstanceToPointInTime", args)
    log(f"RestoreDBInstanceToPointInTime {src['DBInstanceIdentifier']} -> {target} at "
        f"{when.isoformat() if when else 'latest restorable time'}")
    rds.restore_db_instance_to_point_in_time(**args)


def restore_from_snapshot(src: dict, snapshot_id: str, target: str) -> None:
    args = dict(_placement(src))
    args["DBSnapshotIdentifier"] = snapshot_id
    args["DBInstanceIdentifier"] = target
    args = _supported("RestoreDBInstanceFromDBSnapshot", args)
    log(f"RestoreDBInstanceFromDBSnapshot {snapshot_id} -> {target}")
    rds.restore_db_instance_from_db_snapshot(**args)


def restore_window(src: dict):
    """(earliest, latest) restorable times of the instance, either may be None."""
    latest = src.get("LatestRestorableTime")
    earliest = None
    try:
        backups = rds.describe_db_instance_automated_backups(
            DbiResourceId=src["DbiResourceId"])["DBInstanceAutomatedBackups"]
    except (ClientError, BotoCoreError, KeyError) as exc:
        log(f"automated backups of {src.get('DBInstanceIdentifier')} unknown: {exc}")
        backups = []
    for b in backups:
        window = b.get("RestoreWindow") or {}
        if window.get("EarliestTime") and (earliest is None or window["EarliestTime"] < earliest):
            earliest = window["EarliestTime"]
        if latest is None and window.get("LatestTime"):
            latest = window["LatestTime"]
    return earliest, latest


def wait_snapshot(snapshot_id: str, budget: float) -> dict | None:
    """Wait for a snapshot to become available; None if it does not."""
    end = time.monotonic() + max(0.0, min(budget, remaining()))
    while True:
        try:
            snaps = rds.describe_db_snapshots(DBSnapshotIdentifier=snapshot_id)["DBSnapshots"]
            if snaps and snaps[0].get("Status") == "available":
                return snaps[0]
        except ClientError as exc:
            if error_code(exc) != "DBSnapshotNotFound":
                log(f"describe snapshot {snapshot_id}: {error_code(exc)}: {exc}")
        except BotoCoreError as exc:
            log(f"describe snapshot {snapshot_id}: {exc}")
        if time.monotonic() + 1.0 > end:
            return None
        time.sleep(1.0)


def start(call, what: str, attempts: int = 3) -> str:
    """Start a restore. Returns "started", "exists" or the error code.

    Connection failures and throttling are retried: a retried restore of the
    same target either starts or reports that the target already exists."""
    code = "unknown"
    for attempt in range(attempts):
        try:
            call()
            return "started"
        except ClientError as exc:
            code = error_code(exc)
            if code in ("DBInstanceAlreadyExists", "DBInstanceAlreadyExistsFault"):
                log(f"{what}: target already exists")
                return "exists"
            log(f"{what}: {code}: {exc}")
            if code not in ("Throttling", "ThrottlingException", "RequestLimitExceeded",
                            "ServiceUnavailable", "InternalFailure"):
                return code
        except BotoCoreError as exc:
            code = type(exc).__name__
            log(f"{what}: {code}: {exc}")
            if code == "ParamValidationError":
                return code
        if remaining() < 5:
            break
        time.sleep(0.5 * (attempt + 1))
    return code


def snapshots_of(identifier: str) -> list[dict]:
    """Available snapshots (manual and automated) of the instance, newest first."""
    out = []
    try:
        for page in rds.get_paginator("describe_db_snapshots").paginate(DBInstanceIdentifier=identifier):
            out.extend(s for s in page["DBSnapshots"] if s.get("Status") == "available")
    except (ClientError, BotoCoreError) as exc:
        log(f"listing snapshots of {identifier} failed: {error_code(exc)}: {exc}")
    def created(snap):
        t = snap.get("SnapshotCreateTime") or snap.get("OriginalSnapshotCreateTime")
        return t.timestamp() if t else 0.0

    out.sort(key=created, reverse=True)
    return out
