"""Tunables, and the environment the platform gives each worker process."""

import os
from dataclasses import dataclass

# SQS
VISIBILITY_TIMEOUT = 60      # s; also the orders queue default (sqs.tf)
EXTEND_EVERY = 5             # s between visibility extensions of a held message
RECEIVE_WAIT = 1             # s of long polling; short so shutdown never waits long
PROCESSORS = 4               # messages worked on at once by one process

# Retry pacing (per process, per dependency)
BACKOFF_BASE = 0.25          # s, first delay after a failure
BACKOFF_CAP = 2.0            # s, longest delay: recovery is noticed within ~2 s

# PostgreSQL
DB_CONNECT_TIMEOUT = 3       # s, libpq connect_timeout (whole handshake)
DB_OP_TIMEOUT = 4            # s, client-side cap on one statement (hanging server);
                             # statements take milliseconds, so this only bounds a hang
DB_STATEMENT_TIMEOUT_MS = 3000  # server-side, below the client cap

# Liveness of worker processes (hand back a killed worker's messages early)
HEARTBEAT_EVERY = 0.5        # s
DEAD_AFTER = 1.5             # s without heartbeat (and lock free) => dead
REAPER_WARMUP = 15           # s the reaper's own connection must have been up
RESET_WINDOW = 20            # s after its last heartbeat a dead worker's receipts are trusted

# Shutdown budget, from SIGTERM (the platform kills at 5 s)
STOP_RECEIVER_BY = 2.2
STOP_PROCESSORS_BY = 2.6
STOP_PUBLISHER_BY = 3.6
HARD_EXIT_AT = 4.6


@dataclass(frozen=True)
class Env:
    queue_url: str
    dlq_url: str
    topic_arn: str
    database_url: str
    work_seconds: float

    @classmethod
    def load(cls):
        missing = [v for v in ("QUEUE_URL", "DLQ_URL", "TOPIC_ARN", "DATABASE_URL")
                   if not os.environ.get(v)]
        if missing:
            raise LookupError("missing environment: " + ", ".join(missing))
        try:
            work = max(0.0, float(os.environ.get("WORK_SECONDS") or 0))
        except ValueError:
            work = 0.0
        return cls(os.environ["QUEUE_URL"], os.environ["DLQ_URL"], os.environ["TOPIC_ARN"],
                   os.environ["DATABASE_URL"], work)
