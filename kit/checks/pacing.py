"""workload.retries_paced: while a fault refuses a worker's calls, the worker waits between
its attempts instead of retrying in a tight loop.

AWS's guidance for every client is retries with exponential backoff (AWS SDKs and Tools
Reference Guide, "Retry behavior"): a client that retries a refused call at once, again and
again, burns its CPU and its logs, spends API calls, and meets a service that comes back
with a storm. The gateway records each call AWS would refuse (an `authz` op whose decision
is not Allow), so the attempts a worker makes against a refusal are counted where they
happen. Attempts that never reach the gateway, connections refused during a network
outage, are counted by the kernel of the workers' namespace and sampled into
`connects_refused` ops (kit/sandbox/attempts.py): not per worker, so their bound is the
per-worker bound times the workers started.
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
# `actions`: count only refusals of these calls (empty: every call), for a scenario where
# only some calls are retried in place (iam-boundary's receive loop) and the others
# refused once per job (the next job's call, not a retry).
DEFAULTS: dict[str, object] = {"max_refused_per_second": 10.0, "over_seconds": 2.0,
                               "actions": []}


def check_retries_paced(history: History, p: Params) -> CheckResult:
    """workload.retries_paced: in no stretch of `over_seconds` of the fault's window is a
    worker refused more than the bound per second."""
    starts = [op for op in history.of_kind("fault_start") if op.value.fault != "none"]
    ends = history.of_kind("fault_end")
    if not starts or not ends:
        return judged(RETRIES_PACED, True, "no fault window in this run: nothing refused "
                      "a worker's calls", {"window_seconds": 0}, p)
    start, end = starts[0].time, ends[-1].time
    over, limit = p["over_seconds"], p["max_refused_per_second"] * p["over_seconds"]
    peaks = _refusals(history, start, end, over, set(p["actions"]))
    # Unpaced: a worker process refused more than `limit` times within `over` seconds.
    unpaced = [{"worker": worker, "refused": n, "within_seconds": over}
               for worker, n in peaks.items() if n > limit]
    connects = _connects(history, start, end, over, limit)
    evidence = {"window_seconds": round(end - start, 3), "peaks": peaks,
                "unpaced": anomaly(unpaced), "connects": connects}
    # Pass rule: no worker is refused more than `limit` times in any `over` seconds, nor
    # the workers together more connections than `limit` times their number.
    if unpaced:
        first = unpaced[0]
        return judged(RETRIES_PACED, False, f"{plural(len(unpaced), 'worker')} retried "
                      f"refused calls without pause: {first['worker']} was refused "
                      f"{first['refused']} times within {over:g} s (at most {limit:g} with a "
                      "backoff)", evidence, p)
    if connects["peak"] > connects["limit"]:
        return judged(RETRIES_PACED, False, f"the workers reconnected without pause: "
                      f"{connects['peak']} connection attempts refused within {over:g} s of "
                      f"the outage (at most {connects['limit']:g} for "
                      f"{plural(connects['workers'], 'worker')} with a backoff)", evidence, p)
    return judged(RETRIES_PACED, True, f"workers paced their retries: at most "
                  f"{max(peaks.values(), default=0)} refused calls per worker and "
                  f"{connects['peak']} refused connections in all within {over:g} s of the "
                  "fault window", evidence, p)


def _refusals(history: History, start: float, end: float, over: float,
              actions: set[str]) -> dict[str, int]:
    """Per worker process, the most of its calls (of `actions`, if any) AWS refused within
    `over` seconds of the window."""
    times: dict[str, list[float]] = {}
    for op in history.of_kind("authz"):
        if op.process.startswith("worker") and op.value.decision != "Allow" \
                and start <= op.time <= end and (not actions or op.value.action in actions):
            times.setdefault(op.process, []).append(op.time)
    return {worker: _peak(sorted(ts), over) for worker, ts in sorted(times.items())}


def _connects(history: History, start: float, end: float, over: float,
              limit: float) -> dict[str, float]:
    """The most connection attempts refused within `over` seconds of the window (the
    namespace's count, sampled), and their bound for the workers started."""
    samples = [(start, 0)] + [(op.time, op.value.refused)
                              for op in history.of_kind("connects_refused")
                              if start <= op.time <= end]
    peak = max((later - earlier for i, (t0, earlier) in enumerate(samples)
                for t1, later in samples[i:] if t1 - t0 <= over), default=0)
    workers = len({op.value.worker.split("#")[0] for op in history.of_kind("worker_start")})
    return {"peak": peak, "workers": workers, "limit": limit * max(1, workers)}


def _peak(times: list[float], over: float) -> int:
    """The most of the sorted `times` that fall within any `over` seconds."""
    most, first = 0, 0
    for last, t in enumerate(times):
        while t - times[first] > over:
            first += 1
        most = max(most, last - first + 1)
    return most
