"""idempotency.effects_once: each valid message takes effect exactly once, with the values
sent.

Duplicate sends (same body, new message id), redeliveries after a crash and injected
duplicate deliveries must all leave one effect row per key, whose fields equal the fields
sent, and (when the scenario keeps running totals, parameter `totals`) totals that count
each effect once. A lost message is not this invariant's business (delivery.no_loss):
totals are compared with the effects that were recorded, so a loss does not fail this
check too.

`totals` = {table, key, value, sum}: in `table`, the row whose `key` column is K holds in
`value` the sum of `sum` over the effect rows whose `key` field is K (order-pipeline: each
customer's balance_cents is the sum of the amount_cents of their recorded orders). A key
absent from the table has total 0.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from typing import Any

from kit.checks.result import CheckResult, Params, anomaly, error, judged
from kit.checks.sent import Sent, nothing_sent, sent
from kit.history import Effect, FinalState, History

EFFECTS_ONCE = "idempotency.effects_once"
DEFAULTS: dict[str, Any] = {"totals": {}}
TOTALS_FIELDS = ("table", "key", "value", "sum")


def check_effects_once(history: History, p: Params) -> CheckResult:
    """idempotency.effects_once: one effect row per key with the sent values; totals add up."""
    totals = p["totals"]
    if totals and sorted(totals) != sorted(TOTALS_FIELDS):
        return error(EFFECTS_ONCE, f"parameter totals must have exactly "
                     f"{', '.join(TOTALS_FIELDS)}; got {', '.join(totals)}", p)
    s = sent(history)
    if not s.valid:
        return error(EFFECTS_ONCE, f"{nothing_sent(history)}: nothing to judge", p)
    final = history.final
    if final is None or final.effects is None or (totals and final.tables is None):
        return error(EFFECTS_ONCE, "the final effects (and totals) were not read: cannot "
                     "compare effects with what was sent", p)
    rows = final.effects
    per_key = Counter(row.key for row in rows)
    anomalies = _row_anomalies(rows, per_key, s)
    evidence: dict[str, Any] = {"rows": len(rows), "distinct_keys": len(per_key)}
    if totals:
        anomalies["wrong_total"] = _wrong_totals(totals, final, per_key, s.valid)
        evidence["totals_table"] = totals["table"]
    evidence.update({name: anomaly(members) for name, members in anomalies.items()})
    # Pass rule: no duplicated row, wrong value, unexpected row or wrong total.
    found = [f"{len(m)} {name.replace('_', ' ')}" for name, m in anomalies.items() if m]
    if found:
        summary = "effects not exactly once: " + ", ".join(found)
    else:
        summary = f"{len(per_key)} keys took effect once each with the sent values" + (
            f"; the totals in {totals['table']} add up" if totals else "")
    return judged(EFFECTS_ONCE, not found, summary, evidence, p)


def _row_anomalies(rows: list[Effect], per_key: Counter, s: Sent) -> dict[str, list]:
    """The effect rows that are not exactly once with the sent values, by anomaly."""
    poison_keys = {op.value.key for op in s.poison} - {None}
    # Duplicated: a key held by more than one effect row (a table without a primary key,
    # or a write that is not idempotent).
    duplicated = [{"key": key, "rows": n}
                  for key, n in sorted(per_key.items(), key=lambda kv: str(kv[0])) if n > 1]

    # Wrong value: an effect row of a valid key whose field differs from what was sent for
    # that key (only the fields the message carries are compared).
    wrong_value: list[dict[str, Any]] = []
    # Unexpected: a row whose key no valid send carries: a poison message recorded, or a
    # key that was never sent at all.
    poison_recorded: list[dict[str, Any]] = []
    never_sent: list[dict[str, Any]] = []
    for row in rows:
        op = s.valid.get(row.key) if row.key is not None else None
        if op is None:
            target = poison_recorded if row.key in poison_keys else never_sent
            target.append({"key": row.key, **row.fields})
            continue
        for name, value in op.value.fields.items():
            if name in row.fields and row.fields[name] != value:
                wrong_value.append({"key": row.key, "field": name, "sent": value,
                                    "recorded": row.fields[name]})
    return {
        "duplicated": duplicated,
        "wrong_value": sorted(wrong_value, key=_by_key),
        "poison_recorded": sorted(poison_recorded, key=_by_key),
        "never_sent": sorted(never_sent, key=_by_key),
    }


def _wrong_totals(totals: dict[str, str], final: FinalState, per_key: Counter,
                  valid: dict[str, Any]) -> list[dict[str, Any]]:
    """Totals that differ from the sum, over the distinct recorded valid keys, of the sent
    `sum` field grouped by the sent `key` field."""
    expected: dict[Any, int] = defaultdict(int)
    for key in per_key:
        op = valid.get(key) if key is not None else None
        if op is not None:
            fields = op.value.fields
            expected[fields[totals["key"]]] += fields[totals["sum"]]
    actual = {row.get(totals["key"]): row.get(totals["value"])
              for row in (final.tables or {}).get(totals["table"], [])}
    return [{totals["key"]: k, "expected": expected.get(k, 0), "actual": actual.get(k, 0)}
            for k in sorted(set(expected) | set(actual), key=str)
            if actual.get(k, 0) != expected.get(k, 0)]


def _by_key(item: dict[str, Any]) -> str:
    return str(item["key"])
