"""fifo-ledger's own invariants: the order of each account's postings, and its balances.

The postings table (the effects table) holds one row per posting with its `status`
('applied' or 'rejected') and `seq`, an identity column that numbers the rows in the order
they were written (the contract pins both); the accounts table holds each balance.

- ledger.per_group_order: each account's postings were applied in the order they were
  sent, with no gap.
- ledger.balances: each posting's status and each balance are what applying the account's
  recorded postings, in their recorded order, under the overdraft rule gives.

The two are independent: a worker that applies an account out of order fails the first
(its arithmetic can be right for the order it chose); one that miscounts in order fails
the second.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from kit.checks.result import CheckResult, Params, anomaly, error, judged, plural
from kit.checks.sent import nothing_sent, sent
from kit.history import Effect, History
from kit.workload.api import Check

PER_GROUP_ORDER = "ledger.per_group_order"
BALANCES = "ledger.balances"
STATUSES = ("applied", "rejected")


def _ordered_rows(history: History) -> tuple[list[Effect], str | None]:
    """The effect rows sorted by seq, or why they cannot be (missing or non-integer seq)."""
    final = history.final
    if final is None or final.effects is None:
        return [], "the postings table was not read at the end"
    bad = [row.key for row in final.effects if type(row.fields.get("seq")) is not int]
    if bad:
        return [], (f"{plural(len(bad), 'posting')} without an integer seq (e.g. {bad[0]}): "
                    "the contract's postings table numbers its rows")
    return sorted(final.effects, key=lambda row: row.fields["seq"]), None


def check_per_group_order(history: History, p: Params) -> CheckResult:
    """ledger.per_group_order: each account's postings applied in send order, no gaps."""
    s = sent(history)
    if not s.valid:
        return error(PER_GROUP_ORDER, f"{nothing_sent(history)}: nothing to judge", p)
    rows, problem = _ordered_rows(history)
    if problem:
        return (error if "not read" in problem else _failed)(PER_GROUP_ORDER, problem, p)
    sent_order: dict[str, list[str]] = defaultdict(list)  # account -> keys, first sends
    for key, op in s.valid.items():
        sent_order[op.value.fields["account_id"]].append(key)
    position = {key: n for keys in sent_order.values() for n, key in enumerate(keys)}
    applied: dict[str, list[str]] = defaultdict(list)  # account -> keys, by seq, once each
    for row in rows:
        op = s.valid.get(row.key) if row.key is not None else None
        account = op.value.fields["account_id"] if op else None
        if account is not None and row.key not in applied[account]:
            applied[account].append(row.key)

    # Out of order: two postings of one account, the later-sent one written first (each
    # adjacent pair of the written order that goes backwards in the sent order).
    out_of_order: list[dict[str, Any]] = []
    # Gap: a posting never written although a later-sent posting of its account was.
    gaps: list[dict[str, Any]] = []
    for account, keys in sorted(applied.items()):
        out_of_order += [{"account": account, "written_first": a, "sent_first": b}
                         for a, b in zip(keys, keys[1:], strict=False)
                         if position[a] > position[b]]
        last = max(position[k] for k in keys)
        gaps += [{"account": account, "missing": k, "before": sent_order[account][last]}
                 for k in sent_order[account][:last] if k not in keys]
    evidence = {"accounts": len(sent_order), "written": sum(map(len, applied.values())),
                "out_of_order": anomaly(out_of_order), "gaps": anomaly(gaps)}
    # Pass rule: no account has a posting written out of its send order, and no gap.
    if out_of_order or gaps:
        parts = [f"{len(out_of_order)} written out of order" if out_of_order else "",
                 f"{len(gaps)} missing before a later posting" if gaps else ""]
        summary = "postings not applied in send order per account: " + ", ".join(
            x for x in parts if x)
    else:
        summary = (f"every account's postings were applied in send order, without gaps "
                   f"({evidence['written']} postings, {len(sent_order)} accounts)")
    return judged(PER_GROUP_ORDER, not (out_of_order or gaps), summary, evidence, p)


def check_balances(history: History, p: Params) -> CheckResult:
    """ledger.balances: statuses and balances follow from the postings in written order."""
    rows, problem = _ordered_rows(history)
    if problem:
        return (error if "not read" in problem else _failed)(BALANCES, problem, p)
    final = history.final
    accounts = (final.tables or {}).get("accounts") if final else None
    if accounts is None:
        return error(BALANCES, "the accounts table was not read at the end", p)
    balance: dict[Any, int] = defaultdict(int)

    # Wrong status: a posting whose status is not what the overdraft rule gives at its
    # place in its account's written order (a debit that would overdraw is rejected).
    wrong_status: list[dict[str, Any]] = []
    for row in rows:
        account, amount = row.fields.get("account_id"), row.fields.get("amount_cents")
        if type(amount) is not int:
            continue  # a malformed row: effects_once names it
        expected = "rejected" if amount < 0 and balance[account] + amount < 0 else "applied"
        if row.fields.get("status") != expected:
            wrong_status.append({"key": row.key, "account": account, "amount_cents": amount,
                                 "balance_before": balance[account], "expected": expected,
                                 "recorded": row.fields.get("status")})
        if expected == "applied":
            balance[account] += amount
    # Wrong balance: an account whose balance differs from the sum of its applied postings
    # (an account without a row has balance 0).
    actual = {row.get("account_id"): row.get("balance_cents") for row in accounts}
    wrong_balance = [{"account": a, "expected": balance.get(a, 0), "actual": actual.get(a, 0)}
                     for a in sorted(set(balance) | set(actual), key=str)
                     if actual.get(a, 0) != balance.get(a, 0)]
    evidence = {"postings": len(rows), "accounts": len(set(balance) | set(actual)),
                "wrong_status": anomaly(wrong_status), "wrong_balance": anomaly(wrong_balance)}
    # Pass rule: every status and every balance is the replay's.
    if wrong_status or wrong_balance:
        parts = [f"{len(wrong_status)} wrong status" if wrong_status else "",
                 f"{len(wrong_balance)} wrong balance" if wrong_balance else ""]
        summary = "ledger does not add up: " + ", ".join(x for x in parts if x)
    else:
        summary = (f"{len(rows)} postings and {evidence['accounts']} balances follow the "
                   "overdraft rule in written order")
    return judged(BALANCES, not (wrong_status or wrong_balance), summary, evidence, p)


def _failed(check_id: str, summary: str, params: Params) -> CheckResult:
    return judged(check_id, False, summary, {}, params)


# The FIFO behaviours each verdict rests on: a cross-check probes them where moto and
# LocalStack disagree (kit/probes/sqs.py).
CHECKS = {PER_GROUP_ORDER: Check(check_per_group_order,
                                 relied_on=("sqs.fifo_order", "sqs.fifo_group_lock")),
          BALANCES: Check(check_balances, relied_on=("sqs.fifo_order", "sqs.fifo_group_lock",
                                                     "sqs.fifo_deduplication"))}
