"""Entry point: on the loss of the primary's Region, promote the standby in the other
Region and repoint the application there with a higher epoch. Every call goes to the
standby's Region (the lost one answers nothing useful) and every wait is bounded."""

from __future__ import annotations

import json
import logging
import os
import sys
import time
from typing import Any

import boto3
from botocore.config import Config

log = logging.getLogger("runbook")
CONFIG = Config(connect_timeout=2, read_timeout=10, retries={"max_attempts": 3})
WAIT_SECONDS = 45.0


def region_of(arn: str) -> str:
    return arn.split(":")[3]


def wait_writable(rds: Any, identifier: str) -> dict[str, Any]:
    """The promoted instance once it is available and no longer a replica."""
    deadline = time.monotonic() + WAIT_SECONDS
    while True:
        found = rds.describe_db_instances(DBInstanceIdentifier=identifier)["DBInstances"][0]
        if found["DBInstanceStatus"] == "available" \
                and not found.get("ReadReplicaSourceDBInstanceIdentifier"):
            return found
        if time.monotonic() > deadline:
            raise TimeoutError(f"{identifier} is {found['DBInstanceStatus']}")
        time.sleep(0.25)


def main() -> int:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    incident = json.loads(os.environ["INCIDENT"])
    log.info("incident: %s", incident)
    if incident["kind"] != "region_loss":
        log.info("nothing to do for %s", incident["kind"])
        return 0
    standby_arn = os.environ["STANDBY_DB_INSTANCE_ARN"]
    secret_arn = os.environ["STANDBY_ENDPOINT_SECRET_ARN"]
    region = region_of(standby_arn)
    rds = boto3.client("rds", region_name=region, config=CONFIG)
    secrets = boto3.client("secretsmanager", region_name=region_of(secret_arn), config=CONFIG)
    identifier = standby_arn.rsplit(":", 1)[1]
    rds.promote_read_replica(DBInstanceIdentifier=identifier, BackupRetentionPeriod=7)
    promoted = wait_writable(rds, identifier)
    current = json.loads(secrets.get_secret_value(SecretId=secret_arn)["SecretString"])
    secrets.put_secret_value(SecretId=secret_arn, SecretString=json.dumps({
        "host": promoted["Endpoint"]["Address"], "port": promoted["Endpoint"]["Port"],
        "username": current["username"], "dbname": current["dbname"],
        "epoch": int(current.get("epoch", 0)) + 1}))
    log.info("the ledger runs from %s (%s)", region, identifier)
    return 0


if __name__ == "__main__":
    sys.exit(main())
