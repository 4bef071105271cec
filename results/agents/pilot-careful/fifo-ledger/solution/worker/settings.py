"""Configuration: environment plus the timing constants the design relies on."""

from __future__ import annotations

import dataclasses
import os

# --- SQS -------------------------------------------------------------------
# Visibility timeout requested on every receive and every extension. It must
# outlast the longest stretch in which extensions can fail (SQS unreachable,
# AccessDenied, clock skew: 30 s each) plus the extension interval, the retry
# spacing and one timed-out call. Must match the queue's default in sqs.tf.
VISIBILITY_TIMEOUT = 60
# A held message's visibility is extended when it was last extended this long ago.
EXTEND_EVERY = 5.0
# Long-poll wait. Short, so that a receive never delays shutdown much.
RECEIVE_WAIT = 2
# At most this many messages held by one worker process at a time.
MAX_IN_FLIGHT = 10
# Concurrent SQS calls made by message processors (bounds bursts of refused calls).
PROCESSOR_SQS_CONCURRENCY = 2
SQS_CONNECT_TIMEOUT = 2.0
SQS_READ_TIMEOUT = 5.0

# --- PostgreSQL ------------------------------------------------------------
DB_POOL_SIZE = 2
DB_CONNECT_TIMEOUT = 5
# Client-side deadlines: a connection that hangs longer is cut.
DB_CHECK_DEADLINE = 8.0
DB_RECORD_DEADLINE = 10.0
DB_SETUP_DEADLINE = 10.0

# --- retry pacing ----------------------------------------------------------
# While a dependency keeps failing, consecutive attempts by one caller class
# are spaced by BACKOFF_BASE, doubling up to BACKOFF_CAP.
BACKOFF_BASE = 0.5
BACKOFF_CAP = 1.0
DB_CONNECT_BACKOFF_BASE = 0.25
DB_CONNECT_BACKOFF_CAP = 1.0

# --- shutdown --------------------------------------------------------------
# Counted from the signal; the harness SIGKILLs 5 s after SIGTERM.
COMMIT_GRACE = 2.5
HARD_EXIT_AFTER = 4.0

# --- hold book / orphan release --------------------------------------------
HOLD_BEAT = 1.0
JANITOR_EVERY = 1.0
# A peer in another PID namespace is presumed dead after this long without a beat.
PEER_STALE_AFTER = 10.0
# Orphaned receipt handles are only released while at least this much of
# their visibility is certainly left.
RELEASE_MARGIN = 2.0


@dataclasses.dataclass(frozen=True)
class Settings:
    queue_url: str
    dlq_url: str
    database_url: str
    region: str | None
    endpoint_url: str | None
    work_seconds: float

    @classmethod
    def from_env(cls, env=os.environ) -> "Settings":
        missing = [k for k in ("QUEUE_URL", "DLQ_URL", "DATABASE_URL") if not env.get(k)]
        if missing:
            raise RuntimeError("missing environment: " + ", ".join(missing))
        try:
            work_seconds = max(0.0, float(env.get("WORK_SECONDS", "0") or 0))
        except ValueError:
            work_seconds = 0.0
        return cls(
            queue_url=env["QUEUE_URL"],
            dlq_url=env["DLQ_URL"],
            database_url=env["DATABASE_URL"],
            region=env.get("AWS_REGION") or env.get("AWS_DEFAULT_REGION") or None,
            endpoint_url=env.get("AWS_ENDPOINT_URL") or None,
            work_seconds=work_seconds,
        )
