"""workload.workers_start: the solution's worker command gets going.

A worker that exits at once (bad import, missing env, crash on start) is recorded by the
supervisor as a `crash_loop` op with each early exit and the tail of each worker's output;
the run stops there, so every other runtime invariant would have nothing to judge.
"""

from __future__ import annotations

from kit.checks.params import resolve
from kit.checks.result import CheckResult, Params, anomaly, error, judged, plural
from kit.history import History

WORKERS_START = "workload.workers_start"


def check_workers_start(history: History, params: Params) -> CheckResult:
    """workload.workers_start: workers were started and did not crash-loop."""
    p = resolve(WORKERS_START, params, {})
    starts = history.of_kind("worker_start")
    if not starts:
        return error(WORKERS_START, "no worker_start op in the history: the run never "
                     "started a worker", p)
    loops = history.of_kind("crash_loop")
    if not loops:
        return judged(WORKERS_START, True, f"workers ran ({plural(len(starts), 'start')})",
                      {"starts": len(starts)}, p)
    exits = loops[0].value["exits"]
    output = loops[0].value["output"]
    last = next((lines[-1] for lines in output.values() if lines), "no output")
    first = exits[0]
    how = (f"code {first['code']}" if first["code"] >= 0 else f"signal {-first['code']}")
    summary = (f"the worker command never stayed up: {plural(len(exits), 'early exit')} "
               f"(e.g. {first['worker']}, {how} after {first['lived_seconds']} s); "
               f"last output: {last[:200]}")
    return judged(WORKERS_START, False, summary, {"exits": anomaly(exits), "output": output},
                  p)
