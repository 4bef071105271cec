"""Fail the ledger over from a lost us-east-1 to its us-west-2 standby.

Procedure (all API calls go to the surviving Region, except two cheap probes):

1. Read the environment and the incident; act only on a ``region_loss`` of the
   primary's Region.
2. In parallel: describe the standby, read the us-west-2 endpoint secret, and probe
   the lost Region's RDS API. If the lost Region answers, it is not lost (or is back):
   the application is (or will be) writing there, so do nothing.
3. Promote the standby (``PromoteReadReplica``) and wait until it is a standalone,
   writable instance.
4. Probe the lost Region again. If it has come back meanwhile, the application has
   already returned to the old primary (both secrets still name it with the same
   epoch): switching now would lose those writes and fork the ledger, so stop.
5. Write the standby's endpoint into the us-west-2 secret with an epoch strictly higher
   than any epoch either secret can hold. The application then moves to the standby,
   and keeps away from the old primary after us-east-1 returns, because the us-west-2
   value wins as long as its epoch is higher.

The secret is only ever switched after the promotion is confirmed, so the application
is never pointed at a read-only replica, and the old primary is never told anything:
fencing is done by the epoch. Every call has short timeouts and the whole run stays
well inside the 60 s the harness allows.

Exit codes: 0 switched (or already switched), 2 deliberately not switched (lost Region
answered), 1 failed.
"""

from __future__ import annotations

import concurrent.futures
import datetime as dt
import json
import os
import sys
import time
import uuid

import boto3
from botocore.config import Config
from botocore.exceptions import BotoCoreError, ClientError

RUN_BUDGET_S = 45.0  # harness kills us at 60 s; keep a margin for the last call
POLL_INTERVAL_S = 0.25
PROMOTED_BACKUP_RETENTION_DAYS = 7

# Statuses in which a promoted instance accepts writes.
WRITABLE_STATUSES = {
    "available",
    "backing-up",
    "storage-optimization",
    "configuring-enhanced-monitoring",
    "configuring-iam-database-auth",
    "configuring-log-exports",
}

# Calls to the surviving Region: short timeouts, a couple of retries for transient errors.
SURVIVOR_CONFIG = Config(
    connect_timeout=2,
    read_timeout=3,
    retries={"mode": "standard", "total_max_attempts": 2},
)
# Probes of the lost Region: one attempt, fail fast (it answers 503 while lost).
PROBE_CONFIG = Config(
    connect_timeout=1,
    read_timeout=2,
    retries={"mode": "standard", "total_max_attempts": 1},
)

_T0 = time.monotonic()


class Abort(Exception):
    """Stop without switching; ``code`` is the exit code."""

    def __init__(self, message: str, code: int = 1):
        super().__init__(message)
        self.code = code


def log(message: str) -> None:
    now = dt.datetime.now(dt.timezone.utc).strftime("%H:%M:%S.%f")[:-3]
    print(f"{now} +{time.monotonic() - _T0:6.2f}s {message}", file=sys.stderr, flush=True)


def remaining() -> float:
    return RUN_BUDGET_S - (time.monotonic() - _T0)


def parse_arn(arn: str) -> dict:
    parts = arn.split(":", 6)
    if len(parts) < 7 or parts[0] != "arn":
        raise Abort(f"not an ARN: {arn!r}")
    return {"partition": parts[1], "service": parts[2], "region": parts[3],
            "account": parts[4], "type": parts[5], "name": parts[6]}


def error_code(exc: Exception) -> str:
    if isinstance(exc, ClientError):
        return exc.response.get("Error", {}).get("Code", "")
    return type(exc).__name__


def is_transient(exc: Exception) -> bool:
    if isinstance(exc, BotoCoreError):  # timeouts, connection errors
        return True
    if isinstance(exc, ClientError):
        status = exc.response.get("ResponseMetadata", {}).get("HTTPStatusCode", 0)
        return status >= 500 or error_code(exc) in {
            "Throttling", "ThrottlingException", "RequestLimitExceeded",
            "TooManyRequestsException", "ServiceUnavailable", "InternalFailure",
            "InternalServiceError",
        }
    return False


def retry(what: str, fn, *, fatal_codes=()):
    """Call fn until it succeeds, a non-transient error occurs, or the budget is spent."""
    while True:
        try:
            return fn()
        except (ClientError, BotoCoreError) as exc:
            code = error_code(exc)
            if code in fatal_codes or not is_transient(exc):
                raise
            if remaining() < 3:
                raise Abort(f"{what}: still failing ({code}) and out of time") from exc
            log(f"{what}: transient {code}, retrying")
            time.sleep(POLL_INTERVAL_S)


def epoch_of(value: dict) -> int:
    epoch = value.get("epoch") if isinstance(value, dict) else None
    if isinstance(epoch, int) and not isinstance(epoch, bool):
        return epoch
    return 0


def region_answers(rds_lost, db_instance_identifier: str) -> bool:
    """True if the lost Region's RDS API answers at all (i.e. it is not lost now)."""
    try:
        resp = rds_lost.describe_db_instances(DBInstanceIdentifier=db_instance_identifier)
        status = resp["DBInstances"][0].get("DBInstanceStatus") if resp.get("DBInstances") else None
        log(f"probe: lost Region answered, primary status {status!r}")
        return True
    except ClientError as exc:
        status = exc.response.get("ResponseMetadata", {}).get("HTTPStatusCode", 0)
        if status >= 500 or error_code(exc) in {"ServiceUnavailable", "Throttling", "RequestLimitExceeded"}:
            log(f"probe: lost Region still unavailable ({error_code(exc)} / HTTP {status})")
            return False
        # A regular API error (not found, access denied...) is still an answer.
        log(f"probe: lost Region answered with {error_code(exc)}")
        return True
    except BotoCoreError as exc:
        log(f"probe: lost Region unreachable ({type(exc).__name__})")
        return False


def is_promoted(inst: dict, saw_transition: bool) -> bool:
    status = inst.get("DBInstanceStatus")
    if inst.get("ReadReplicaSourceDBInstanceIdentifier"):
        # Still a replica per the API. Only accept it if we watched it go through the
        # promotion reboot and come back available.
        return saw_transition and status == "available" and not any(
            s.get("StatusType") == "read replication" for s in inst.get("StatusInfos") or []
        )
    return status in WRITABLE_STATUSES


def main() -> int:
    try:
        return run()
    except Abort as exc:
        log(f"NOT SWITCHED: {exc}")
        return exc.code
    except Exception as exc:  # noqa: BLE001 - report and leave the state as it is
        log(f"FAILED: {type(exc).__name__}: {exc}")
        return 1


def run() -> int:
    # ---- 1. inputs -------------------------------------------------------------------
    try:
        incident = json.loads(os.environ.get("INCIDENT") or "{}")
        if not isinstance(incident, dict):
            incident = {}
    except json.JSONDecodeError:
        log("warning: INCIDENT is not JSON; relying on the lost-Region probe")
        incident = {}

    primary_id = os.environ.get("DB_INSTANCE_IDENTIFIER") or incident.get("db_instance_identifier")
    standby_arn = os.environ["STANDBY_DB_INSTANCE_ARN"]
    primary_secret_arn = os.environ["ENDPOINT_SECRET_ARN"]
    standby_secret_arn = os.environ["STANDBY_ENDPOINT_SECRET_ARN"]

    primary_region = parse_arn(primary_secret_arn)["region"]
    standby = parse_arn(standby_arn)
    standby_region = standby["region"]
    if standby["service"] != "rds" or standby["type"] != "db":
        raise Abort(f"STANDBY_DB_INSTANCE_ARN is not a DB instance ARN: {standby_arn!r}")
    standby_id = standby["name"]
    if parse_arn(standby_secret_arn)["region"] != standby_region:
        raise Abort("standby secret and standby instance are in different Regions")

    kind = incident.get("kind")
    lost_region = incident.get("region") or primary_region
    if kind not in (None, "region_loss"):
        raise Abort(f"incident kind {kind!r} is not a region loss; nothing to do", 2)
    if lost_region != primary_region:
        raise Abort(f"lost Region {lost_region} is not the primary's ({primary_region})", 2)
    if lost_region == standby_region:
        raise Abort("the standby's own Region is the one lost", 2)
    log(f"region loss of {lost_region} (started {incident.get('started_at')}, "
        f"reported {incident.get('reported_at')}); failing over to {standby_id} in {standby_region}")

    rds = boto3.client("rds", region_name=standby_region, config=SURVIVOR_CONFIG)
    sm = boto3.client("secretsmanager", region_name=standby_region, config=SURVIVOR_CONFIG)
    rds_lost = boto3.client("rds", region_name=lost_region, config=PROBE_CONFIG)

    def describe_standby() -> dict:
        return retry("describe standby", lambda: rds.describe_db_instances(
            DBInstanceIdentifier=standby_id)["DBInstances"][0], fatal_codes={"DBInstanceNotFound"})

    def read_standby_secret() -> dict:
        resp = retry("read standby secret", lambda: sm.get_secret_value(SecretId=standby_secret_arn))
        try:
            value = json.loads(resp.get("SecretString") or "{}")
        except json.JSONDecodeError:
            value = {}
        return value if isinstance(value, dict) else {}

    # ---- 2. look before acting ---------------------------------------------------------
    with concurrent.futures.ThreadPoolExecutor(max_workers=3) as pool:
        f_inst = pool.submit(describe_standby)
        f_secret = pool.submit(read_standby_secret)
        f_probe = pool.submit(region_answers, rds_lost, primary_id)
        inst = f_inst.result()
        current = f_secret.result()
        lost_region_up = f_probe.result()

    log(f"standby status {inst.get('DBInstanceStatus')!r}, replica of "
        f"{inst.get('ReadReplicaSourceDBInstanceIdentifier')!r}; standby secret epoch "
        f"{epoch_of(current)} -> host {current.get('host')!r}")

    standby_host = (inst.get("Endpoint") or {}).get("Address")
    already_promoted = not inst.get("ReadReplicaSourceDBInstanceIdentifier")
    if already_promoted and current.get("host") == standby_host and epoch_of(current) > 1:
        log("standby already promoted and secret already names it; nothing to do")
        return 0

    if lost_region_up and not already_promoted:
        raise Abort(f"{lost_region} answers: it is not lost (or already back) and the "
                    "application stays on the primary; standby left untouched", 2)

    # ---- 3. promote ----------------------------------------------------------------
    if not already_promoted:
        try:
            retry("promote standby", lambda: rds.promote_read_replica(
                DBInstanceIdentifier=standby_id,
                BackupRetentionPeriod=PROMOTED_BACKUP_RETENTION_DAYS,
            ), fatal_codes={"InvalidDBInstanceState", "DBInstanceNotFound"})
            log("PromoteReadReplica accepted")
        except ClientError as exc:
            if error_code(exc) != "InvalidDBInstanceState":
                raise
            # Typically: a promotion is already under way (a previous run). Wait for it.
            log(f"PromoteReadReplica: {exc}; waiting for the instance state")
    else:
        log("standby is already standalone")

    saw_transition = False
    while True:
        try:
            inst = rds.describe_db_instances(DBInstanceIdentifier=standby_id)["DBInstances"][0]
        except (ClientError, BotoCoreError) as exc:
            if not is_transient(exc):
                raise
            log(f"describe standby: transient {error_code(exc)}")
        else:
            if inst.get("DBInstanceStatus") in ("modifying", "rebooting"):
                saw_transition = True  # the promotion reboot
            if is_promoted(inst, saw_transition):
                break
        if remaining() < 4:
            raise Abort(f"standby not promoted in time (last status "
                        f"{inst.get('DBInstanceStatus')!r}); secret not switched")
        time.sleep(POLL_INTERVAL_S)

    endpoint = inst.get("Endpoint") or {}
    host, port = endpoint.get("Address"), endpoint.get("Port")
    if not host or not port:
        raise Abort(f"promoted standby reports no endpoint: {endpoint!r}")
    log(f"standby promoted: status {inst.get('DBInstanceStatus')!r}, endpoint {host}:{port}")

    # ---- 4. last check: has the lost Region come back meanwhile? --------------------
    if region_answers(rds_lost, primary_id):
        raise Abort(f"{lost_region} came back before the switch; the application is back "
                    "on the old primary, so the (promoted, unused) standby is not switched "
                    "to. Rebuild the standby after the incident.", 2)

    # ---- 5. switch ---------------------------------------------------------------------
    # Strictly above anything either secret can hold: the current us-west-2 epoch, the
    # us-east-1 epoch (1 from Terraform; failback procedures keep it <= the us-west-2
    # one) and, in case that rule was ever broken while us-east-1 is unreadable, the
    # current Unix time in seconds.
    new_epoch = max(epoch_of(current) + 1, 2, int(time.time()))
    value = {
        "host": host,
        "port": int(port),
        "username": inst.get("MasterUsername") or current.get("username"),
        "dbname": current.get("dbname") or inst.get("DBName"),
        "epoch": new_epoch,
    }
    token = str(uuid.uuid5(uuid.NAMESPACE_URL, f"{standby_secret_arn}#{new_epoch}#{host}"))
    resp = retry("write standby secret", lambda: sm.put_secret_value(
        SecretId=standby_secret_arn,
        SecretString=json.dumps(value),
        ClientRequestToken=token,
    ))
    log(f"SWITCHED: standby secret version {resp.get('VersionId')} = {json.dumps(value)}")

    try:
        check = json.loads(sm.get_secret_value(SecretId=standby_secret_arn)["SecretString"])
        if check.get("host") != host or epoch_of(check) != new_epoch:
            log(f"warning: read back a different value: {check}")
    except (ClientError, BotoCoreError, json.JSONDecodeError) as exc:
        log(f"warning: could not read the secret back: {error_code(exc)}")

    log("done. Follow-up (not automated): keep the old us-east-1 primary out of service "
        "when it returns, rebuild a replica from the new primary, and fail back in a "
        "planned window by writing both secrets with a new, higher epoch.")
    return 0
