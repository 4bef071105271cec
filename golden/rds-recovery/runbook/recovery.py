"""Recovery steps: restore into a new instance, wait until it is available, repoint the
application's endpoint secret at it. Every wait is bounded."""

from __future__ import annotations

import json
import logging
import time
from datetime import datetime
from typing import Any

import boto3
from botocore.config import Config

log = logging.getLogger("runbook")
POLL_SECONDS = 0.5
WAIT_SECONDS = 80.0
CONFIG = Config(connect_timeout=2, read_timeout=10, retries={"max_attempts": 3})


class Recovery:
    """Recovery of one DB instance and the secret that points the application at it."""

    def __init__(self, source: str, secret_arn: str) -> None:
        self.source = source
        self.secret_arn = secret_arn
        self.rds = boto3.client("rds", config=CONFIG)
        self.secrets = boto3.client("secretsmanager", config=CONFIG)

    def describe(self, identifier: str) -> dict[str, Any] | None:
        """The instance's description, or None when it does not exist."""
        try:
            return self.rds.describe_db_instances(
                DBInstanceIdentifier=identifier)["DBInstances"][0]
        except self.rds.exceptions.DBInstanceNotFoundFault:
            return None

    def exists(self) -> bool:
        return self.describe(self.source) is not None

    def multi_az(self) -> bool:
        found = self.describe(self.source)
        return bool(found and found["MultiAZ"])

    def _target(self) -> str:
        # Named after the source: the operator's policy covers exactly these names.
        return f"{self.source}-r{int(time.time())}"

    def restore_to_time(self, when: str) -> None:
        """A new instance with what the source had committed at `when` (ISO 8601 UTC)."""
        target = self._target()
        moment = datetime.fromisoformat(when.replace("Z", "+00:00"))
        log.info("restoring %s to %s as %s", self.source, when, target)
        self.rds.restore_db_instance_to_point_in_time(
            SourceDBInstanceIdentifier=self.source, TargetDBInstanceIdentifier=target,
            RestoreTime=moment, MultiAZ=True, DeletionProtection=True)
        self.repoint(self.wait_available(target))

    def restore_latest(self) -> None:
        """A new instance with everything the source's backups hold."""
        target = self._target()
        log.info("restoring %s to its latest restorable time as %s", self.source, target)
        self.rds.restore_db_instance_to_point_in_time(
            SourceDBInstanceIdentifier=self.source, TargetDBInstanceIdentifier=target,
            UseLatestRestorableTime=True, MultiAZ=True, DeletionProtection=True)
        self.repoint(self.wait_available(target))

    def restore_snapshot(self, snapshot: str) -> None:
        """A new instance from a snapshot, once the snapshot is complete."""
        self._wait(lambda: self.rds.describe_db_snapshots(DBSnapshotIdentifier=snapshot)
                   ["DBSnapshots"][0]["Status"] == "available", f"snapshot {snapshot}")
        target = self._target()
        log.info("restoring snapshot %s as %s", snapshot, target)
        self.rds.restore_db_instance_from_db_snapshot(
            DBInstanceIdentifier=target, DBSnapshotIdentifier=snapshot, MultiAZ=True,
            DeletionProtection=True)
        self.repoint(self.wait_available(target))

    def wait_available(self, identifier: str) -> dict[str, Any]:
        """The instance's description once it is available (bounded)."""
        found: dict[str, Any] = {}

        def ready() -> bool:
            found.update(self.describe(identifier) or {})
            return found.get("DBInstanceStatus") == "available"

        self._wait(ready, f"instance {identifier}")
        return found

    def repoint(self, instance: dict[str, Any]) -> None:
        """Point the application at `instance`."""
        value = {"host": instance["Endpoint"]["Address"], "port": instance["Endpoint"]["Port"],
                 "username": instance["MasterUsername"], "dbname": instance["DBName"]}
        self.secrets.put_secret_value(SecretId=self.secret_arn, SecretString=json.dumps(value))
        log.info("application repointed to %s", instance["DBInstanceIdentifier"])

    @staticmethod
    def _wait(condition: Any, what: str) -> None:
        deadline = time.monotonic() + WAIT_SECONDS
        while not condition():
            if time.monotonic() > deadline:
                raise TimeoutError(f"{what} not ready after {WAIT_SECONDS:.0f} s")
            time.sleep(POLL_SECONDS)
