"""idempotency.effects_once: each order takes effect exactly once, with the sent values.

Duplicate sends (same body, new message id), redeliveries after a crash and injected
duplicate deliveries must all leave one row per order and balances that count each order
once. A lost order is not this invariant's business (delivery.no_loss): balances are
compared with the orders that were recorded, so a loss does not fail this check too.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from typing import Any

from kit.checks.params import resolve
from kit.checks.result import CheckResult, Params, anomaly, error, judged
from kit.checks.sent import sent
from kit.history import History

EFFECTS_ONCE = "idempotency.effects_once"


def check_effects_once(history: History, params: Params) -> CheckResult:
    """idempotency.effects_once: one row per order with the sent values; balances add up."""
    p = resolve(EFFECTS_ONCE, params, {})
    s = sent(history)
    if not s.valid:
        return error(EFFECTS_ONCE, "no valid order was sent: the workload did not run, "
                     "nothing to judge", p)
    final = history.final
    if final is None or final.orders is None or final.balances is None:
        return error(EFFECTS_ONCE, "the final orders and balances tables were not both read: "
                     "cannot compare effects with what was sent", p)
    poison_order_ids = {op.value["order_id"] for op in s.poison} - {None}
    rows = final.orders

    # Duplicated: an order id held by more than one row of `orders` (a table without a
    # primary key, or a write that is not idempotent).
    per_id = Counter(row.order_id for row in rows)
    duplicated = [{"order_id": oid, "rows": n}
                  for oid, n in sorted(per_id.items(), key=lambda kv: str(kv[0])) if n > 1]

    # Wrong value: a row of a valid order whose amount_cents or customer_id differs from
    # what was sent for that order.
    wrong_amount: list[dict[str, Any]] = []
    wrong_customer: list[dict[str, Any]] = []
    # Unexpected: a row whose order id no valid send carries: a poison message recorded,
    # or an order id that was never sent at all.
    poison_recorded: list[dict[str, Any]] = []
    never_sent: list[dict[str, Any]] = []
    for row in rows:
        op = s.valid.get(row.order_id) if row.order_id is not None else None
        if op is None:
            target = poison_recorded if row.order_id in poison_order_ids else never_sent
            target.append(_row(row))
            continue
        if row.amount_cents != op.value["amount_cents"]:
            wrong_amount.append({"order_id": row.order_id, "sent": op.value["amount_cents"],
                                 "recorded": row.amount_cents})
        if row.customer_id != op.value["customer_id"]:
            wrong_customer.append({"order_id": row.order_id, "sent": op.value["customer_id"],
                                   "recorded": row.customer_id})

    # Wrong balance: a customer whose balance differs from the sum of the sent amount_cents
    # over that customer's distinct valid orders present in `orders`. A customer absent
    # from customer_balances has balance 0.
    expected: dict[str, int] = defaultdict(int)
    for oid in per_id:
        op = s.valid.get(oid) if oid is not None else None
        if op is not None:
            expected[op.value["customer_id"]] += op.value["amount_cents"]
    wrong_balance = [
        {"customer_id": c, "expected": expected.get(c, 0), "actual": final.balances.get(c, 0)}
        for c in sorted(set(expected) | set(final.balances))
        if final.balances.get(c, 0) != expected.get(c, 0)
    ]

    anomalies = {
        "duplicated": duplicated,
        "wrong_amount": sorted(wrong_amount, key=_by_order),
        "wrong_customer": sorted(wrong_customer, key=_by_order),
        "poison_recorded": sorted(poison_recorded, key=_by_order),
        "never_sent": sorted(never_sent, key=_by_order),
        "wrong_balance": wrong_balance,
    }
    evidence: dict[str, Any] = {"rows": len(rows), "distinct_orders": len(per_id),
                                "customers": len(set(expected) | set(final.balances))}
    evidence.update({name: anomaly(members) for name, members in anomalies.items()})
    # Pass rule: no duplicated row, wrong value, unexpected row or wrong balance.
    found = [f"{len(m)} {name.replace('_', ' ')}" for name, m in anomalies.items() if m]
    if found:
        summary = "effects not exactly once: " + ", ".join(found)
    else:
        summary = (f"{len(per_id)} orders recorded once each with the sent values; "
                   f"balances of {evidence['customers']} customers add up")
    return judged(EFFECTS_ONCE, not found, summary, evidence, p)


def _row(row: Any) -> dict[str, Any]:
    return {"order_id": row.order_id, "customer_id": row.customer_id,
            "amount_cents": row.amount_cents}


def _by_order(item: dict[str, Any]) -> str:
    return str(item["order_id"])
