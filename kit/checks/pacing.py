"""workload.retries_paced: while a fault refuses a worker's calls, the worker waits between
its attempts instead of retrying in a tight loop.

AWS's guidance for every client is retries with exponential backoff (AWS SDKs and Tools
Reference Guide, "Retry behavior"): a client that retries a refused call at once, again and
again, burns its CPU and its logs, spends API calls, and meets a service that comes back
with a storm. The gateway records each call AWS would refuse (an `authz` op whose decision
is not Allow), so the attempts a worker makes against a refusal are counted where they
happen. Attempts that never reach the gateway (a refused TCP connection during a network
outage) are not seen here.
"""

from __future__ import annotations

from collections import Counter

from kit.checks.result import CheckResult, Params, anomaly, judged, plural
from kit.history import History

RETRIES_PACED = "workload.retries_paced"
# A worker that backs off from 0.5 s, with a heartbeat and a delete retry of its own, is
# refused a few times a second at most; one that retries at once, dozens.
DEFAULTS = {"max_refused_per_second": 10.0}


def check_retries_paced(history: History, p: Params) -> CheckResult:
    """workload.retries_paced: no worker is refused more than the bound per second, on
    average over a fault's window."""
    starts = [op for op in history.of_kind("fault_start") if op.value.fault != "none"]
    ends = history.of_kind("fault_end")
    if not starts or not ends:
        return judged(RETRIES_PACED, True, "no fault window in this run: nothing refused "
                      "a worker's calls", {"window_seconds": 0}, p)
    start, end = starts[0].time, ends[-1].time
    seconds = max(end - start, 1.0)  # a window shorter than a second counts as one
    refused = Counter(op.process for op in history.of_kind("authz")
                      if op.process.startswith("worker") and op.value.decision != "Allow"
                      and start <= op.time <= end)
    bound = p["max_refused_per_second"]
    # Unpaced: a worker process refused more than `bound` times a second over the window.
    unpaced = [{"worker": worker, "refused": n, "per_second": round(n / seconds, 1)}
               for worker, n in sorted(refused.items()) if n / seconds > bound]
    evidence = {"window_seconds": round(seconds, 3), "refused": dict(sorted(refused.items())),
                "unpaced": anomaly(unpaced)}
    # Pass rule: every worker's refused calls average at most `bound` a second.
    if unpaced:
        first = unpaced[0]
        return judged(RETRIES_PACED, False, f"{plural(len(unpaced), 'worker')} retried "
                      f"refused calls without pause: {first['worker']} was refused "
                      f"{first['refused']} times in the {seconds:.1f} s fault window "
                      f"({first['per_second']} a second; at most {bound:g} with a "
                      "backoff)", evidence, p)
    most = max(refused.values(), default=0)
    return judged(RETRIES_PACED, True, f"workers paced their retries: at most {most} "
                  f"refused calls per worker in the {seconds:.1f} s fault window", evidence,
                  p)
