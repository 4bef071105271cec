"""One procedure per incident kind (see the package docstring)."""

from __future__ import annotations

import datetime as dt
import time
import traceback

from botocore.exceptions import BotoCoreError, ClientError

from . import aws
from .aws import LOST, SERVING, endpoint, summary
from .context import Incident, load, log, remaining

# Restore point for a bad migration: just before it started. The application
# was already in maintenance then, so nothing acknowledged is lost unless it
# stopped writing less than this long before the migration; the margin keeps
# the restore point before the damage even if the service rounds the
# timestamp to whole seconds.
BEFORE_MIGRATION = dt.timedelta(milliseconds=500)

# How long to watch an instance that RDS is recovering by itself (failover
# ~2 s, single-AZ restart ~8 s in the drill) before concluding.
WATCH_S = 45.0

# ------------------------------------------------------------------- helpers

def _settled(inst: dict | None) -> bool:
    return inst is None or inst.get("DBInstanceStatus") in SERVING | LOST


def _really_lost(identifier: str, inst: dict | None) -> bool:
    """Restoring elsewhere while the instance is alive would split the
    application's writes, so confirm a "not found" before acting on it."""
    if inst is not None:
        return inst.get("DBInstanceStatus") in LOST
    time.sleep(2.0)
    ok, again = aws.try_describe(identifier)
    if not ok:
        return False
    if again is not None:
        log(f"{identifier} is back: {summary(again)}")
        return again.get("DBInstanceStatus") in LOST
    return True


def _read_secret(inc: Incident) -> dict:
    for _ in range(3):
        try:
            return aws.read_secret(inc.secret_arn)
        except (ClientError, BotoCoreError, ValueError) as exc:
            log(f"reading the endpoint secret failed: {aws.error_code(exc)}: {exc}")
            time.sleep(0.5)
    return {}


def _check_secret(inc: Incident, inst: dict, secret: dict) -> None:
    """For incidents RDS recovers in place: the endpoint does not change, so
    the secret should already name the instance. Repoint only if what it
    names is not a serving ledger instance."""
    ep = endpoint(inst)
    if not ep:
        log("instance has no endpoint; cannot check the secret")
        return
    if (secret.get("host"), secret.get("port")) == ep:
        log(f"secret names {inc.instance} ({ep[0]}:{ep[1]}): ok")
        return
    for other in aws.instances_named_after(inc.base):
        oep = endpoint(other)
        if oep and oep[0] == secret.get("host") and other.get("DBInstanceStatus") in SERVING:
            log(f"secret names {other['DBInstanceIdentifier']} (serving), not {inc.instance}; "
                "leaving it: repointing a live application would split its writes")
            return
    if inst.get("DBInstanceStatus") in SERVING:
        aws.point_secret(inc.secret_arn, secret, ep[0], ep[1], inst)


def _warn_posture(inst: dict) -> None:
    if not inst.get("DeletionProtection"):
        log("WARNING: deletion protection is OFF on the instance in use; "
            "escalate (the operator role cannot change it)")
    if not inst.get("MultiAZ"):
        log("WARNING: instance is Single-AZ: crashes cost a full restart, an AZ loss a restore")


def _predicted_address(src: dict | None, target: str) -> str | None:
    """RDS endpoints are <identifier>.<account/region suffix>: the address a
    new instance will get is knowable before RDS reports it."""
    ep = endpoint(src)
    if ep and ep[0].startswith(src["DBInstanceIdentifier"] + "."):
        return target + ep[0][len(src["DBInstanceIdentifier"]):]
    return None


def _finish_restore(inc: Incident, target: str, src: dict | None, secret: dict) -> str:
    """Follow a restore to completion, repointing the secret as soon as the new
    endpoint is known (the application re-reads the secret whenever its
    connection fails, so an early switch only shortens the outage, and it
    survives the runbook being killed). Returns "ready", "failed" or "timeout"."""
    pointed = False
    while True:
        ok, new = aws.try_describe(target)
        if ok and new:
            ep = endpoint(new)
            if ep and not pointed:
                try:
                    secret = aws.point_secret(inc.secret_arn, secret, ep[0], ep[1], new)
                    pointed = True
                except (ClientError, BotoCoreError) as exc:
                    log(f"repointing the secret failed: {aws.error_code(exc)}: {exc}")
            status = new.get("DBInstanceStatus")
            if status in SERVING and pointed:
                log(f"restored: {summary(new)}")
                return "ready"
            if status in LOST:
                log(f"restore failed: {summary(new)}")
                return "failed"
        if remaining() < 1.5:
            break
        time.sleep(1.0)
    if not pointed:
        guess = _predicted_address(src, target)
        if guess:
            log(f"out of time and RDS reports no endpoint yet; pointing the secret at {guess}")
            port = endpoint(src)[1]
            try:
                aws.point_secret(inc.secret_arn, secret, guess, port, src)
            except (ClientError, BotoCoreError) as exc:
                log(f"repointing the secret failed: {aws.error_code(exc)}: {exc}")
        else:
            log("out of time; the secret still names the old instance: ESCALATE")
    return "timeout"


def _source_from_backups(inc: Incident, identifier: str) -> dict | None:
    """Description of an instance that no longer exists, from its retained
    automated backups (kept: delete_automated_backups = false)."""
    try:
        backups = aws.rds.describe_db_instance_automated_backups(
            DBInstanceIdentifier=identifier)["DBInstanceAutomatedBackups"]
    except (ClientError, BotoCoreError) as exc:
        log(f"automated backups of {identifier}: {aws.error_code(exc)}: {exc}")
        return None
    if not backups:
        return None
    b = backups[0]
    log(f"using retained automated backups {b.get('DBInstanceAutomatedBackupsArn')}")
    return {
        "DBInstanceIdentifier": identifier,
        "DbiResourceId": b.get("DbiResourceId"),
        "DBInstanceClass": b.get("DBInstanceClass"),
        "DbInstancePort": b.get("Port"),
        "StorageType": b.get("StorageType"),
        "BackupRetentionPeriod": b.get("BackupRetentionPeriod"),
        "IAMDatabaseAuthenticationEnabled": b.get("IAMDatabaseAuthenticationEnabled"),
        # Not recorded in the backup: the ledger's subnet group by convention.
        "DBSubnetGroup": {"DBSubnetGroupName": f"{inc.base}-subnets"},
        "_automated_backups_arn": b.get("DBInstanceAutomatedBackupsArn"),
    }


def _restore_latest(inc: Incident, src: dict | None, secret: dict) -> int:
    """The instance is gone or will not come back: restore its latest
    restorable time (lags the present by <= 1 s) into a new instance."""
    target = inc.restore_target
    ok, existing = aws.try_describe(target)
    if ok and existing and existing.get("DBInstanceStatus") not in LOST:
        log(f"{target} already exists (earlier run); following it")
        return 0 if _finish_restore(inc, target, src, secret) == "ready" else 1

    if src is None:
        src = _source_from_backups(inc, inc.instance)
    if src is None:
        log("nothing known about the lost instance; cannot restore: ESCALATE")
        return 1

    sources = [{"SourceDBInstanceIdentifier": src["DBInstanceIdentifier"]}]
    if src.get("DbiResourceId"):
        sources.append({"SourceDbiResourceId": src["DbiResourceId"]})
    if src.get("_automated_backups_arn"):
        sources.append({"SourceDBInstanceAutomatedBackupsArn": src["_automated_backups_arn"]})
    for ref in sources:
        outcome = aws.start(lambda ref=ref: aws.restore_to_time(src, target, None, ref),
                            f"point-in-time restore via {list(ref)[0]}")
        if outcome in ("started", "exists"):
            break
    else:
        snapshot = _snapshot_for(inc, src, before=None)
        if not snapshot:
            log("no way to restore: ESCALATE")
            return 1
        outcome = aws.start(lambda: aws.restore_from_snapshot(src, snapshot, target),
                            "snapshot restore")
        if outcome not in ("started", "exists"):
            log("ESCALATE")
            return 1
    return 0 if _finish_restore(inc, target, src, secret) == "ready" else 1


def _snapshot_for(inc: Incident, src: dict, before: dt.datetime | None) -> str | None:
    """Newest usable snapshot of the instance (taken before `before`)."""
    final = inc.raw.get("final_snapshot_identifier")
    if final and before is None:
        snap = aws.wait_snapshot(final, budget=min(20.0, remaining() - 10))
        if snap:
            return final
    for snap in aws.snapshots_of(src["DBInstanceIdentifier"]):
        created = snap.get("SnapshotCreateTime")
        if before is None or (created and created < before):
            log(f"using snapshot {snap['DBSnapshotIdentifier']} taken {created}")
            return snap["DBSnapshotIdentifier"]
    return None


# --------------------------------------------------------------- procedures

def in_place(inc: Incident) -> int:
    """instance_crash, reboot_failover (and the default): RDS recovers the
    instance itself; watch it, then check the secret."""
    secret = _read_secret(inc)
    inst = aws.wait(inc.instance, _settled, WATCH_S)
    if _really_lost(inc.instance, inst):
        log(f"{inc.instance} is not coming back ({summary(inst)}); restoring")
        return _restore_latest(inc, inst, secret)
    ok, again = aws.try_describe(inc.instance)
    inst = again if ok and again else inst
    if inst is None or inst.get("DBInstanceStatus") not in SERVING:
        log(f"{inc.instance} still recovering after {WATCH_S:.0f}s: {summary(inst)}; ESCALATE")
        return 1
    _check_secret(inc, inst, secret)
    _warn_posture(inst)
    return 0


def az_loss(inc: Incident) -> int:
    """Multi-AZ: RDS fails over to the standby by itself; never force a
    failover here, it could send the primary back into the dark zone.
    Single-AZ: the instance is stranded; restore it elsewhere."""
    secret = _read_secret(inc)
    ok, inst = aws.try_describe(inc.instance)
    if ok and inst is not None and not inst.get("MultiAZ"):
        log(f"{inc.instance} is Single-AZ in a lost zone ({summary(inst)}); restoring")
        return _restore_latest(inc, inst, secret)
    return in_place(inc)


def deletion_attempt(inc: Incident) -> int:
    secret = _read_secret(inc)
    log(f"deletion refused by AWS: {inc.raw.get('deletion_refused')}")
    ok, inst = aws.try_describe(inc.instance)
    if ok and _really_lost(inc.instance, inst):
        log(f"{inc.instance} is being deleted or gone ({summary(inst)}); restoring")
        return _restore_latest(inc, inst, secret)
    inst = aws.wait(inc.instance, _settled, WATCH_S)
    if _really_lost(inc.instance, inst):
        return _restore_latest(inc, inst, secret)
    if inst is None or inst.get("DBInstanceStatus") not in SERVING:
        log(f"{inc.instance} is not serving: {summary(inst)}; ESCALATE")
        return 1
    _check_secret(inc, inst, secret)
    _warn_posture(inst)
    # A manual snapshot outlives the instance and its automated backups:
    # insurance in case whoever tried comes back with more permissions.
    if inst.get("DBInstanceStatus") == "available":
        name = f"{inc.base}-guard-{int(inc.reported_at.timestamp())}"
        try:
            aws.rds.create_db_snapshot(DBSnapshotIdentifier=name,
                                       DBInstanceIdentifier=inst["DBInstanceIdentifier"])
            log(f"snapshot {name} started")
        except (ClientError, BotoCoreError) as exc:
            log(f"guard snapshot {name}: {aws.error_code(exc)}: {exc}")
    return 0


def bad_migration(inc: Incident) -> int:
    """Restore to just before the migration into <ledger>-r<epoch> and repoint.
    The application is paused until we exit, so the switch is clean: nothing
    is written to the damaged instance after the restore point."""
    secret = _read_secret(inc)
    target = inc.restore_target

    ok, existing = aws.try_describe(target)
    if ok and existing and existing.get("DBInstanceStatus") not in LOST:
        log(f"{target} already exists (earlier run); following it")
        ok, src = aws.try_describe(inc.instance)
        return 0 if _finish_restore(inc, target, src, secret) == "ready" else 1

    # The damage is in the database the application uses: the one the
    # secret names. Normally that is the incident's instance.
    source_id = inc.instance
    for other in aws.instances_named_after(inc.base):
        oep = endpoint(other)
        if oep and oep[0] == secret.get("host") and other["DBInstanceIdentifier"] != inc.instance:
            log(f"the secret names {other['DBInstanceIdentifier']}, not {inc.instance}: "
                "restoring the instance the application uses")
            source_id = other["DBInstanceIdentifier"]
            break

    src = None
    for _ in range(3):
        ok, src = aws.try_describe(source_id)
        if ok:
            break
        time.sleep(0.5)
    if src is None:
        log(f"{source_id} not found: ESCALATE")
        return 1
    log(f"damaged instance: {summary(src)}")

    if inc.started_at is None:
        log("incident has no started_at; cannot choose a restore point: ESCALATE")
        return 1
    when = inc.started_at - BEFORE_MIGRATION

    earliest, latest = aws.restore_window(src)
    log(f"restore window: {earliest} .. {latest}; wanted {when.isoformat()}")
    deadline = time.monotonic() + 3.0
    while latest is not None and latest < when and time.monotonic() < deadline:
        time.sleep(0.5)  # LatestRestorableTime lags the present by <= 1 s
        ok, fresh = aws.try_describe(source_id)
        if ok and fresh:
            latest = fresh.get("LatestRestorableTime")
    if latest is not None and latest < when:
        # Still before the migration, so still a clean restore point. Named
        # explicitly: "latest" could move past the migration meanwhile.
        log(f"latest restorable time {latest} is before the wanted point; using it")
        when = latest

    use_snapshot = False
    if earliest is not None and earliest > when:
        if earliest < inc.started_at:
            log(f"earliest restorable time {earliest} is after the wanted point; using it")
            when = earliest
        else:
            log("the migration is older than the backup window; falling back to a snapshot")
            use_snapshot = True

    if not use_snapshot:
        outcome = aws.start(lambda: aws.restore_to_time(src, target, when),
                            "point-in-time restore")
        use_snapshot = outcome not in ("started", "exists")

    if use_snapshot:
        # Loses what was written after the snapshot, but undoes the damage.
        snapshot = _snapshot_for(inc, src, before=inc.started_at)
        if not snapshot:
            log("no snapshot from before the migration: ESCALATE")
            return 1
        outcome = aws.start(lambda: aws.restore_from_snapshot(src, snapshot, target),
                            "snapshot restore")
        if outcome not in ("started", "exists"):
            log("ESCALATE")
            return 1

    result = _finish_restore(inc, target, src, secret)
    if result == "failed" and remaining() > 15:
        retry = f"{target}-b"
        log(f"restore failed; trying a snapshot from before the migration as {retry}")
        snapshot = _snapshot_for(inc, src, before=inc.started_at)
        if snapshot and aws.start(lambda: aws.restore_from_snapshot(src, snapshot, retry),
                                  "snapshot restore") in ("started", "exists"):
            result = _finish_restore(inc, retry, src, secret)
    return 0 if result == "ready" else 1


PROCEDURES = {
    "instance_crash": in_place,
    "reboot_failover": in_place,
    "az_loss": az_loss,
    "deletion_attempt": deletion_attempt,
    "bad_migration": bad_migration,
}


def main() -> int:
    try:
        inc = load()
    except Exception as exc:  # noqa: BLE001 - report and stop
        log(f"cannot read the incident: {exc!r}")
        return 2
    log(f"incident {inc.kind!r} on {inc.instance} (started {inc.started_at}, "
        f"reported {inc.reported_at}); ledger={inc.base}")
    procedure = PROCEDURES.get(inc.kind)
    if procedure is None:
        log(f"unknown incident kind {inc.kind!r}; checking the instance only")
        procedure = in_place
    try:
        rc = procedure(inc)
    except Exception:  # noqa: BLE001 - a runbook must always say what happened
        log("unexpected error:\n" + traceback.format_exc())
        rc = 1
    log(f"done, exit {rc}")
    return rc
