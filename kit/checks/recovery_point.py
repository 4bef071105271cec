"""recovery.rpo: what the application was told is committed survives the recovery, but for a
loss window no longer than the recovery point objective.

Measured from the data: every acknowledged write (COMMIT answered) is looked up in the
database the application uses at the end (the one its endpoint secret names). The window is
measured within the run's history, so a scenario keeps more history before its faults than
its RPO (then losing everything spans more than the RPO too).
"""

from __future__ import annotations

from typing import Any

from kit.checks.result import CheckResult, Params, anomaly, error, judged, plural
from kit.checks.writes import incident, stored, unread, writes
from kit.history import History

RPO = "recovery.rpo"
DEFAULTS: dict[str, Any] = {"rpo_seconds": 2.0, "table": "ledger", "key": "txn_id"}


def check_rpo(history: History, p: Params) -> CheckResult:
    """recovery.rpo: acknowledged writes lost span at most rpo_seconds."""
    acked = writes(history).acked
    if not acked:
        return judged(RPO, True, "no write was acknowledged: nothing could be lost",
                      {"acked": 0}, p)
    rows = stored(history, p["table"], p["key"])
    if rows is None:
        blamed, why = unread(history, RPO)
        if not blamed:
            return error(RPO, f"{why}: cannot tell what survived", p)
        # No database at all: everything is lost, however short the history was.
        return judged(RPO, False, f"all {len(acked)} acknowledged writes lost: {why}",
                      {"acked": len(acked), "lost": anomaly(
                          [op.value.key for op in acked]), "window_seconds": None}, p)
    # Lost: an acknowledged write whose row is not in the database in use at the end.
    lost = [op for op in acked if op.value.key not in rows]
    # Window: from the first lost write's acknowledgement to the last one's.
    window = round(lost[-1].time - lost[0].time, 3) if lost else 0.0
    reported = incident(history)
    members = [{"key": op.value.key, "acked_at": round(op.time, 3),
                "endpoint": op.value.endpoint} for op in lost]
    evidence = {"acked": len(acked), "lost": anomaly(members), "window_seconds": window,
                "incident_at": round(reported.time, 3) if reported else None}
    # Pass rule: nothing lost, or the lost writes span at most rpo_seconds.
    ok = not lost or window <= p["rpo_seconds"]
    if not lost:
        summary = f"all {len(acked)} acknowledged writes survived"
    else:
        summary = (f"{plural(len(lost), 'acknowledged write')} of {len(acked)} lost, spanning "
                   f"{window} s ({members[0]['key']} .. {members[-1]['key']}); the RPO is "
                   f"{p['rpo_seconds']} s")
    return judged(RPO, ok, summary, evidence, p)
