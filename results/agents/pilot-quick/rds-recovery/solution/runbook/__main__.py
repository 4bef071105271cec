import datetime as dt
import json
import os
import sys
import time

import boto3
from botocore.config import Config

START = time.monotonic()
DEADLINE = 85.0  # harness kills us at 90 s

cfg = Config(connect_timeout=3, read_timeout=10, retries={"max_attempts": 3, "mode": "standard"})
rds = boto3.client("rds", config=cfg)
sm = boto3.client("secretsmanager", config=cfg)


def log(msg):
    print(f"[{time.monotonic() - START:5.1f}s] {msg}", flush=True)


def left():
    return DEADLINE - (time.monotonic() - START)


def describe(ident):
    return rds.describe_db_instances(DBInstanceIdentifier=ident)["DBInstances"][0]


def wait_available(ident, limit):
    end = time.monotonic() + limit
    inst = describe(ident)
    while inst["DBInstanceStatus"] != "available" and time.monotonic() < end:
        time.sleep(1)
        inst = describe(ident)
    log(f"{ident}: {inst['DBInstanceStatus']}")
    return inst


def read_secret(arn):
    return json.loads(sm.get_secret_value(SecretId=arn)["SecretString"])


def point_secret(arn, inst):
    cur = read_secret(arn)
    ep = inst.get("Endpoint") or {}
    if not ep.get("Address"):
        log("no endpoint yet; secret unchanged")
        return
    if cur.get("host") == ep["Address"] and cur.get("port") == ep["Port"]:
        log("secret already points at the instance")
        return
    cur["host"], cur["port"] = ep["Address"], int(ep["Port"])
    sm.put_secret_value(SecretId=arn, SecretString=json.dumps(cur))
    log(f"secret now points at {ep['Address']}:{ep['Port']}")


def parse_ts(s):
    return dt.datetime.fromisoformat(s.replace("Z", "+00:00"))


def main():
    incident = json.loads(os.environ["INCIDENT"])
    base = os.environ["DB_INSTANCE_IDENTIFIER"]
    secret = os.environ["ENDPOINT_SECRET_ARN"]
    kind = incident["kind"]
    ident = incident.get("db_instance_identifier") or base
    log(f"incident {kind} on {ident}")

    if kind == "bad_migration":
        src = describe(ident)
        restore_time = parse_ts(incident["started_at"]) - dt.timedelta(milliseconds=500)
        target = f"{base}-r{int(time.time())}"
        log(f"restoring {ident} to {restore_time.isoformat()} as {target}")
        args = dict(
            SourceDBInstanceIdentifier=ident,
            TargetDBInstanceIdentifier=target,
            RestoreTime=restore_time,
            DBInstanceClass=src["DBInstanceClass"],
            MultiAZ=True,
            PubliclyAccessible=src["PubliclyAccessible"],
            StorageType=src["StorageType"],
            VpcSecurityGroupIds=[g["VpcSecurityGroupId"] for g in src["VpcSecurityGroups"]],
            DeletionProtection=True,
            CopyTagsToSnapshot=True,
            BackupRetentionPeriod=src["BackupRetentionPeriod"],
        )
        if src.get("DBSubnetGroup"):
            args["DBSubnetGroupName"] = src["DBSubnetGroup"]["DBSubnetGroupName"]
        rds.restore_db_instance_to_point_in_time(**args)
        inst = wait_available(target, left() - 3)
        point_secret(secret, inst)
    else:
        inst = wait_available(ident, min(40, left()))
        point_secret(secret, inst)
        if not inst.get("DeletionProtection"):
            log("WARNING: deletion protection is OFF")
    return 0


if __name__ == "__main__":
    sys.exit(main())
