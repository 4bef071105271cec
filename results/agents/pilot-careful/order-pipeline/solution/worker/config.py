"""Settings: the environment given by the platform, and the timing budget.

Timing budget (all in seconds):

* A receive hides the message for INITIAL_VISIBILITY. If the process dies before it has
  recorded the receipt handle in the lease registry, the message is visible again after
  at most this long, which keeps "recovered within 30 s" true.
* As soon as the handle is recorded, the lease keeper extends the lease to
  LEASE_VISIBILITY and renews it whenever less than RENEW_BELOW remains. At any moment at
  least RENEW_BELOW (45 s) remains, which is more than the longest SQS / IAM outage the
  platform promises to survive (30 s) plus retry slack, so a held message never becomes
  visible to another worker while we are alive.
* A worker that dies after recording its handle is detected by its siblings (its file
  lock is gone) and its message is handed back to SQS at once.
* On SIGTERM the worker hands its message back with RELEASE_VISIBILITY (so it becomes
  visible only after we have exited) and exits; a watchdog forces the exit after
  FORCE_EXIT_AFTER, well inside the platform's 5 s.
* Worst case for renewing a lease after a 30 s outage ends: a renewal call hanging for
  AWS_CONNECT_TIMEOUT + AWS_READ_TIMEOUT (6 s) plus one back-off (<= 2 s): 38 s < 45 s.
"""

import os


def _float(name, default):
    try:
        return max(0.0, float(os.environ.get(name, default)))
    except ValueError:
        return float(default)


QUEUE_URL = os.environ.get("QUEUE_URL", "")
DLQ_URL = os.environ.get("DLQ_URL", "")
DATABASE_URL = os.environ.get("DATABASE_URL", "")
AWS_ENDPOINT_URL = os.environ.get("AWS_ENDPOINT_URL") or None
WORK_SECONDS = _float("WORK_SECONDS", "0")

# SQS leases
INITIAL_VISIBILITY = 20
LEASE_VISIBILITY = 60
RENEW_BELOW = 45
RELEASE_VISIBILITY = 2
RECEIVE_WAIT = 2  # long poll; short so that SIGTERM is noticed promptly

# AWS client timeouts (botocore retries are disabled; we pace retries ourselves)
AWS_CONNECT_TIMEOUT = 2
AWS_READ_TIMEOUT = 4
AWS_SHUTDOWN_CONNECT_TIMEOUT = 0.5
AWS_SHUTDOWN_READ_TIMEOUT = 1.0

# Database
DB_CONNECT_TIMEOUT = 6   # whole connection establishment, enforced by psycopg
DB_OP_TIMEOUT = 15       # client-side deadline for one statement (hanging connections)
DB_PING_AFTER_IDLE = 15  # check an idle connection before taking new work

# Retry pacing: exponential back-off with jitter, in [base/2, base] .. [cap/2, cap].
# One failing loop makes at most ~4 calls in any 2 s; a process has two such loops.
RETRY_BASE = 0.3
RETRY_CAP = 2.0

# Shutdown (the platform SIGKILLs 5 s after SIGTERM). Worst case of the forced path:
# FORCE_EXIT_AFTER + max(EXIT_LOCK_WAIT, renewal wait 0.2 + shutdown call 1.5) = 4.3 s.
FORCE_EXIT_AFTER = 2.5
EXIT_LOCK_WAIT = 1.8

# Lease registry housekeeping
ORPHAN_SCAN_INTERVAL = 3.0
