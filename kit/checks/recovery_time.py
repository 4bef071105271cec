"""recovery.rto: after an incident, the application has a write acknowledged again within the
recovery time objective.

The clock runs from the incident op (when the runbook was told) to the first write
acknowledged after it and after the application's last failure (a failed or in-doubt write,
a failed connection): a write a dying server still acknowledges is not a recovery. A fault
kind may have its own objective (`by_fault`: a restore takes longer than a failover, and its
objective says so). The clock is the drill's: time the kit's data plane spent beyond a
transition's modelled duration (an `overrun` event: a loaded machine promoting a standby
slowly) is left out, so that the machine's speed never decides the verdict. Whether that
write landed in the right database is recovery.consistent's and recovery.rpo's question,
not this one's.
"""

from __future__ import annotations

from typing import Any

from kit.checks.result import CheckResult, Params, judged
from kit.checks.writes import incident, writes
from kit.history import History

RTO = "recovery.rto"
DEFAULTS: dict[str, Any] = {"rto_seconds": 10.0, "by_fault": {}}


def check_rto(history: History, p: Params) -> CheckResult:
    """recovery.rto: the first acknowledged write after the incident within the RTO."""
    reported = incident(history)
    if reported is None:
        return judged(RTO, True, "no incident in this run: nothing to recover from",
                      {"incident_at": None}, p)
    fault = reported.value.fault
    target = float(p["by_fault"].get(fault, p["rto_seconds"]))
    acked = writes(history).acked
    before = [op for op in acked if op.index < reported.index]
    failures = [op.index for op in history.ops if op.process == "app"
                and op.type in ("fail", "info") and op.index > reported.index]
    since = max([reported.index, *failures])
    after = [op for op in acked if op.index > since]
    exits = history.of_kind("runbook_exit")
    evidence: dict[str, Any] = {
        "fault": fault, "rto_seconds": target, "incident_at": round(reported.time, 3),
        "last_ack_before": round(before[-1].time, 3) if before else None,
        "failures_after_incident": len(failures),
        "runbook_exit": exits[0].value.as_dict() if exits else None}
    # Unrecovered: no write acknowledged after the incident and its last failure.
    if not after:
        return judged(RTO, False, f"no write was acknowledged after the {fault} incident "
                      f"and its last failure (RTO {target} s)",
                      {**evidence, "first_ack_after": None}, p)
    overrun = _overrun(history, reported.time, after[0].time)
    took = round(after[0].time - reported.time - overrun, 3)
    evidence |= {"first_ack_after": round(after[0].time, 3), "recovered_in_seconds": took,
                 "data_plane_overrun_seconds": overrun}
    # Pass rule: the first acknowledged write after the incident within the objective.
    ok = took <= target
    return judged(RTO, ok, f"the application wrote again {took} s after the {fault} incident "
                  f"({'within' if ok else 'beyond'} the RTO of {target} s)", evidence, p)


def _overrun(history: History, start: float, end: float) -> float:
    """Seconds the data plane's transitions ended between `start` and `end` took beyond
    their modelled time."""
    return round(sum(float(getattr(op.value, "seconds", 0.0))
                     for op in history.of_kind("rds_event")
                     if op.value.event == "overrun" and start < op.time <= end), 3)
