"""recovery.within_rto: after the fault ends, every valid message takes effect within the RTO.

The clock starts at the reference time: the fault_end op (the latest, if several) or,
when the run had no fault (fault "none"), the last send. A key's deadline is
max(reference, its first send) + rto_seconds: a message sent after the fault ended gets
the same RTO from its own send. The time a key takes effect is the observer's first sight
of its effect row (`recorded` op), so the deadline is judged at the poller's resolution.
"""

from __future__ import annotations

from typing import Any

from kit.checks.result import CheckResult, Params, anomaly, error, judged
from kit.checks.sent import first_recorded, nothing_sent, sent
from kit.history import History

WITHIN_RTO = "recovery.within_rto"
DEFAULTS = {"rto_seconds": 60.0}


def check_within_rto(history: History, p: Params) -> CheckResult:
    """recovery.within_rto: each valid key takes effect by max(fault end, send) + RTO."""
    rto = p["rto_seconds"]
    s = sent(history)
    if not s.valid:
        return error(WITHIN_RTO, f"{nothing_sent(history)}: nothing to judge", p)
    starts = [op for op in history.of_kind("fault_start") if op.value.fault != "none"]
    ends = [op for op in history.of_kind("fault_end") if op.value.fault != "none"]
    if starts and not ends:
        f = starts[-1]
        return error(WITHIN_RTO, f"fault {f.value.fault!r} started at {f.time:.3f} s and "
                     f"never ended: the nemesis did not heal it, so recovery cannot be timed", p)
    if ends:
        reference = max(op.time for op in ends)
        basis = f"fault_end ({ends[-1].value.fault}) at {reference:.3f} s"
    else:
        reference = max(op.time for op in history.of_kind("send"))
        basis = f"the last send at {reference:.3f} s (no fault)"

    recorded = first_recorded(history)
    final = history.final
    if final is not None and final.effects is not None:
        unseen = sorted({r.key for r in final.effects if r.key is not None
                         and r.key in s.valid and r.key not in recorded})
        if unseen:
            return error(WITHIN_RTO, f"{len(unseen)} keys are in the final table but have no "
                         f"`recorded` op (e.g. {unseen[0]}): the observer's ledger is "
                         f"incomplete, so recovery cannot be timed", p,
                         {"unseen": anomaly(unseen)})

    # Late: a valid key first recorded after its deadline.
    late: list[dict[str, Any]] = []
    # Never recorded: a valid key with no `recorded` op at all (it also misses the RTO).
    never: list[str] = []
    for oid, op in s.valid.items():
        deadline = max(reference, op.time) + rto
        seen = recorded.get(oid)
        if seen is None:
            never.append(oid)
        elif seen.time > deadline:
            late.append({"key": oid, "sent_at": round(op.time, 3),
                         "recorded_at": round(seen.time, 3), "deadline": round(deadline, 3),
                         "late_by_s": round(seen.time - deadline, 3)})
    evidence = {"keys": len(s.valid), "reference_time": round(reference, 3),
                "late": anomaly(late), "never_recorded": anomaly(never),
                "slowest_s": _slowest(s.valid, recorded, reference)}
    # Pass rule: every valid key is recorded at or before its deadline.
    if late or never:
        parts = []
        if late:
            worst = max(item["late_by_s"] for item in late)
            parts.append(f"{len(late)} recorded late (worst {worst} s past the deadline)")
        if never:
            parts.append(f"{len(never)} never recorded")
        summary = (f"of {len(s.valid)} valid messages, {' and '.join(parts)}; RTO {rto} s "
                   f"after {basis}")
    else:
        summary = f"all {len(s.valid)} valid messages took effect within {rto} s of {basis}"
    return judged(WITHIN_RTO, not (late or never), summary, evidence, p)


def _slowest(valid: dict[str, Any], recorded: dict[str, Any], reference: float
             ) -> float | None:
    """The slowest recorded key's time to effect past max(reference, its send): what is
    left of the RTO is its headroom (bench/throughput.py reads it)."""
    took = [recorded[oid].time - max(reference, op.time) for oid, op in valid.items()
            if oid in recorded]
    return round(max(took), 3) if took else None
