"""python -m runbook: promote the us-west-2 standby and point the app at it."""
import json
import os
import sys
import time

import boto3
from botocore.config import Config
from botocore.exceptions import BotoCoreError, ClientError

DEADLINE = time.monotonic() + 55


def log(msg):
    print(f"{time.strftime('%H:%M:%S')} {msg}", file=sys.stderr, flush=True)


def main():
    standby_arn = os.environ["STANDBY_DB_INSTANCE_ARN"]
    secret_arn = os.environ["STANDBY_ENDPOINT_SECRET_ARN"]
    # arn:aws:rds:us-west-2:123456789012:db:ledger-db-standby
    parts = standby_arn.split(":")
    region, standby_id = parts[3], parts[6]
    secret_region = secret_arn.split(":")[3]

    cfg = Config(connect_timeout=2, read_timeout=5,
                 retries={"mode": "standard", "total_max_attempts": 3})
    rds = boto3.client("rds", region_name=region, config=cfg)
    sm = boto3.client("secretsmanager", region_name=secret_region, config=cfg)

    def describe():
        return rds.describe_db_instances(DBInstanceIdentifier=standby_id)["DBInstances"][0]

    inst = describe()
    if inst.get("ReadReplicaSourceDBInstanceIdentifier"):
        log(f"promoting {standby_id}")
        while True:
            try:
                rds.promote_read_replica(DBInstanceIdentifier=standby_id)
                break
            except ClientError as e:
                code = e.response["Error"]["Code"]
                if code == "InvalidDBInstanceState":
                    log("already being promoted")
                    break
                if time.monotonic() > DEADLINE:
                    raise
                log(f"promote failed: {code}, retrying")
                time.sleep(0.5)
    else:
        log("standby already promoted")

    while True:
        try:
            inst = describe()
        except (ClientError, BotoCoreError) as e:
            log(f"describe failed: {e}")
            inst = {}
        status = inst.get("DBInstanceStatus")
        if status == "available" and not inst.get("ReadReplicaSourceDBInstanceIdentifier"):
            break
        if time.monotonic() > DEADLINE:
            log("timed out waiting for promotion; not switching")
            return 1
        time.sleep(0.25)
    log("standby promoted")

    current = json.loads(sm.get_secret_value(SecretId=secret_arn)["SecretString"])
    epoch = current.get("epoch")
    if not isinstance(epoch, int) or isinstance(epoch, bool):
        epoch = 0
    new_epoch = max(epoch, 1) + 1
    value = {
        "host": inst["Endpoint"]["Address"],
        "port": inst["Endpoint"]["Port"],
        "username": inst["MasterUsername"],
        "dbname": inst.get("DBName") or current.get("dbname"),
        "epoch": new_epoch,
    }
    sm.put_secret_value(SecretId=secret_arn, SecretString=json.dumps(value))
    log(f"standby secret now {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
