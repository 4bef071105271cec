"""recovery.consistent: the database the application uses at the end is a state the
application could have produced: a prefix of its acknowledged history, then every write it
had acknowledged on that database since, with no transaction in part and nothing invented.

The application writes one transaction at a time, so its acknowledged writes are totally
ordered. The tail is the last run of them made through the endpoint in use at the end; the
head is everything before it (writes on an instance that recovery replaced, or the whole
history when the endpoint never changed: then the head is empty). A write whose outcome
the application could not know (info) may be present or not.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from kit.checks.result import CheckResult, Params, anomaly, error, judged, plural
from kit.checks.writes import stored, unread, writes
from kit.history import History, Op

CONSISTENT = "recovery.consistent"
DEFAULTS: dict[str, Any] = {
    "table": "ledger", "key": "txn_id",
    "totals": {"table": "accounts", "key": "account", "sum": "amount", "value": "balance",
               "count": "txns"}}


def check_consistent(history: History, p: Params) -> CheckResult:
    """recovery.consistent: prefix + tail, nothing torn, altered or invented."""
    rows = stored(history, p["table"], p["key"])
    if rows is None:
        blamed, why = unread(history, CONSISTENT)
        if not blamed:
            return error(CONSISTENT, f"{why}: cannot judge its state", p)
        return judged(CONSISTENT, False, f"no database to judge: {why}", {"rows": None}, p)
    log = writes(history)
    in_use = (history.final.in_use or {}).get("endpoint") if history.final else None
    head, tail = _split(log.acked, in_use)
    present = [op.value.key in rows for op in head]
    last = max((i for i, here in enumerate(present) if here), default=-1)
    # Hole: a head write missing while a later head write is present (the head is not a
    # prefix: rows removed behind the application's back, or a restore to a wrong point).
    holes = [op.value.key for op, here in zip(head[:last + 1], present[:last + 1],
                                                 strict=True) if not here]
    # Lost tail: a write the database in use acknowledged and no longer has.
    lost_tail = [op.value.key for op in tail if op.value.key not in rows]
    # Invented: a row whose key the application never wrote.
    invented = sorted(k for k in rows if k not in log.written)
    # Altered: a row whose fields differ from what the application wrote.
    altered = [{"key": k, "row": rows[k], "written": log.written[k]} for k in sorted(rows)
               if k in log.written and _differs(rows[k], log.written[k])]
    # Torn: an account whose totals are not the sum and count of its ledger rows.
    torn = _torn(history, rows, p["totals"])
    evidence = {"head": len(head), "head_present": last + 1, "tail": len(tail),
                "in_doubt": len(log.in_doubt), "holes": anomaly(holes),
                "lost_tail": anomaly(lost_tail), "invented": anomaly(invented),
                "altered": anomaly(altered), "torn": anomaly(torn)}
    found = {"hole": holes, "lost tail write": lost_tail, "invented row": invented,
             "altered row": altered, "torn account": torn}
    parts = [plural(len(items), what) for what, items in found.items() if items]
    # Pass rule: no hole, no lost tail write, nothing invented, altered or torn.
    if parts:
        return judged(CONSISTENT, False, "the database in use is not a state the application "
                      "produced: " + ", ".join(parts), evidence, p)
    kept = (f"the first {last + 1} of the {len(head)} writes made before it was in use and "
            f"all {len(tail)} since" if head else f"all {len(tail)} acknowledged writes")
    return judged(CONSISTENT, True, f"the database in use holds {kept}; nothing torn, altered "
                  "or invented", evidence, p)


def _split(acked: list[Op], endpoint: str | None) -> tuple[list[Op], list[Op]]:
    """(head, tail): the tail is the last run of writes through `endpoint`."""
    start = len(acked)
    while start > 0 and acked[start - 1].value.endpoint == endpoint:
        start -= 1
    return acked[:start], acked[start:]


def _differs(row: dict[str, Any], written: dict[str, Any]) -> bool:
    return any(name in row and row[name] != value for name, value in written.items())


def _torn(history: History, rows: dict[str, dict[str, Any]],
          totals: dict[str, str]) -> list[dict[str, Any]]:
    final = history.final
    accounts = (final.tables or {}).get(totals["table"], []) if final else []
    sums: dict[str, int] = defaultdict(int)
    counts: dict[str, int] = defaultdict(int)
    for row in rows.values():
        sums[str(row[totals["key"]])] += int(row[totals["sum"]])
        counts[str(row[totals["key"]])] += 1
    torn = []
    seen = set()
    for account in accounts:
        name = str(account[totals["key"]])
        seen.add(name)
        if int(account[totals["value"]]) != sums[name] or \
                int(account[totals["count"]]) != counts[name]:
            torn.append({"account": name, "balance": account[totals["value"]],
                         "ledger_sum": sums[name], "txns": account[totals["count"]],
                         "ledger_rows": counts[name]})
    torn += [{"account": name, "balance": None, "ledger_sum": sums[name], "txns": None,
              "ledger_rows": counts[name]} for name in sorted(set(sums) - seen)]
    return torn
