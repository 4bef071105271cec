"""What the runbook is told, how long it has, and how it reports.

Environment:

    INCIDENT                the incident, JSON: kind, db_instance_identifier,
                            started_at, reported_at, kind-specific fields
    DB_INSTANCE_IDENTIFIER  the ledger instance (Terraform output); every
                            instance the runbook creates is named after it
    ENDPOINT_SECRET_ARN     the secret the application reads its endpoint from
    AWS_*                   endpoint, region and operator-role session (boto3)
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import os
import sys
import time

# The harness kills the runbook at 90 s. Stop starting long waits well before
# that so the last, important call (repointing the secret) always fits.
HARD_LIMIT_S = 90.0
WORK_LIMIT_S = 75.0

_T0 = time.monotonic()

KINDS = ("instance_crash", "az_loss", "bad_migration", "deletion_attempt", "reboot_failover")


def elapsed() -> float:
    return time.monotonic() - _T0


def remaining() -> float:
    """Seconds left for work (not counting the safety margin)."""
    return WORK_LIMIT_S - elapsed()


def log(msg: str) -> None:
    print(f"[runbook +{elapsed():5.1f}s] {msg}", file=sys.stderr, flush=True)


def parse_time(value: str) -> dt.datetime:
    """ISO 8601 (``...Z`` or with offset) -> aware UTC datetime."""
    t = dt.datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
    if t.tzinfo is None:
        t = t.replace(tzinfo=dt.timezone.utc)
    return t.astimezone(dt.timezone.utc)


@dataclasses.dataclass(frozen=True)
class Incident:
    kind: str
    instance: str  # the instance the incident is about
    base: str  # the ledger's identifier: prefix of every instance we create
    secret_arn: str
    started_at: dt.datetime | None
    reported_at: dt.datetime
    raw: dict

    @property
    def restore_target(self) -> str:
        """Deterministic name for an instance restored for this incident.

        Derived from the report time so that running the runbook twice for
        one incident reuses the restore instead of starting a second one.
        """
        return f"{self.base}-r{int(self.reported_at.timestamp())}"


def load() -> Incident:
    raw = json.loads(os.environ["INCIDENT"])
    base = os.environ.get("DB_INSTANCE_IDENTIFIER") or raw.get("db_instance_identifier")
    secret_arn = os.environ["ENDPOINT_SECRET_ARN"]
    if not base:
        raise SystemExit("DB_INSTANCE_IDENTIFIER is not set")
    kind = str(raw.get("kind", "")).strip()
    started = raw.get("started_at")
    reported = raw.get("reported_at")
    return Incident(
        kind=kind,
        instance=raw.get("db_instance_identifier") or base,
        base=base,
        secret_arn=secret_arn,
        started_at=parse_time(started) if started else None,
        reported_at=parse_time(reported) if reported else dt.datetime.now(dt.timezone.utc),
        raw=raw,
    )
