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

from kit.checks.result import CheckResult, Params, anomaly, judged, plural
from kit.history import History

RETRIES_PACED = "workload.retries_paced"
# A worker that backs off from 0.5 s, with a heartbeat and a delete retry of its own, was
# refused at most 5 times in any 2 s of a fault (the goldens and alternatives that judge
# this, 2026-12-03): its sleeps bound that, whatever the load. One that retries at once
# was refused 60 to 80 times on an idle machine, fewer on a loaded one, where each attempt
# waits longer for the gateway's answer. Only where every refusal is a retry: a worker
# refused once per message it takes (the next message, not the same call) is paced by its
# work, which a count cannot tell from a loop.
DEFAULTS = {"max_refused_per_second": 10.0, "over_seconds": 2.0}


def check_retries_paced(history: History, p: Params) -> CheckResult:
    """workload.retries_paced: in no stretch of `over_seconds` of the fault's window is a
    worker refused more than the bound per second."""
    starts = [op for op in history.of_kind("fault_start") if op.value.fault != "none"]
    ends = history.of_kind("fault_end")
    if not starts or not ends:
        return judged(RETRIES_PACED, True, "no fault window in this run: nothing refused "
                      "a worker's calls", {"window_seconds": 0}, p)
    start, end = starts[0].time, ends[-1].time
    times: dict[str, list[float]] = {}
    for op in history.of_kind("authz"):
        if op.process.startswith("worker") and op.value.decision != "Allow" \
                and start <= op.time <= end:
            times.setdefault(op.process, []).append(op.time)
    over, limit = p["over_seconds"], p["max_refused_per_second"] * p["over_seconds"]
    peaks = {worker: _peak(sorted(ts), over) for worker, ts in sorted(times.items())}
    # Unpaced: a worker process refused more than `limit` times within `over` seconds.
    unpaced = [{"worker": worker, "refused": n, "within_seconds": over}
               for worker, n in peaks.items() if n > limit]
    evidence = {"window_seconds": round(end - start, 3), "peaks": peaks,
                "unpaced": anomaly(unpaced)}
    # Pass rule: no worker is refused more than `limit` times in any `over` seconds.
    if unpaced:
        first = unpaced[0]
        return judged(RETRIES_PACED, False, f"{plural(len(unpaced), 'worker')} retried "
                      f"refused calls without pause: {first['worker']} was refused "
                      f"{first['refused']} times within {over:g} s (at most {limit:g} with a "
                      "backoff)", evidence, p)
    return judged(RETRIES_PACED, True, f"workers paced their retries: at most "
                  f"{max(peaks.values(), default=0)} refused calls per worker within "
                  f"{over:g} s of the fault window", evidence, p)


def _peak(times: list[float], over: float) -> int:
    """The most of the sorted `times` that fall within any `over` seconds."""
    most, first = 0, 0
    for last, t in enumerate(times):
        while t - times[first] > over:
            first += 1
        most = max(most, last - first + 1)
    return most
