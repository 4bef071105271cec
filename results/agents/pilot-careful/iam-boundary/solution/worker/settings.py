"""Runtime settings: environment given by the harness plus tuning constants."""

import dataclasses
import os

# --- tuning -----------------------------------------------------------------

# Seconds a receive (and each heartbeat) reserves a message for. Short enough
# that a message stranded by a vanished worker comes back well inside the
# 30 s recovery window, long enough that a 10 s outage of every SQS call
# (explicit deny, revoked session) never lets it lapse while we hold it.
VISIBILITY_TIMEOUT = 30

# Seconds between visibility extensions of held messages.
HEARTBEAT_INTERVAL = 3.0

# Never *start* storing a result or deleting a message with less than this
# much of the lease left: beyond it another worker might already hold it.
LEASE_SAFETY = 6.0

# Long-poll seconds. Kept short so a receive in flight never delays shutdown
# past the harness' 5 s SIGKILL deadline.
RECEIVE_WAIT = 2

# Jobs rendered concurrently by one process (rendering is mostly waiting).
CAPACITY = 32

# Back-off after a refused/failed call (seconds), equal-jitter exponential.
BACKOFF_BASE = 0.25
BACKOFF_CAP = 2.0

# Seconds after SIGTERM by which the process is gone, whatever happens.
SHUTDOWN_HARD_LIMIT = 4.5
# ... and by which it stops waiting for the receiver and starts handing back.
SHUTDOWN_RECEIVER_WAIT = 2.8

# Invalid messages (not a job) are parked this long instead of deleted.
PARK_SECONDS = 900


@dataclasses.dataclass(frozen=True)
class Env:
    queue_url: str
    bucket: str
    work_seconds: float
    region: str
    endpoint_url: str | None


def _float(value: str | None, default: float) -> float:
    try:
        f = float(value) if value not in (None, "") else default
    except ValueError:
        return default
    return f if f >= 0 else default


def load() -> Env:
    return Env(
        queue_url=os.environ.get("QUEUE_URL", ""),
        bucket=os.environ.get("RESULTS_BUCKET", ""),
        work_seconds=_float(os.environ.get("WORK_SECONDS"), 0.0),
        region=os.environ.get("AWS_REGION")
        or os.environ.get("AWS_DEFAULT_REGION")
        or "us-east-1",
        endpoint_url=os.environ.get("AWS_ENDPOINT_URL") or None,
    )
