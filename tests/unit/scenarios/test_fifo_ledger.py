"""fifo-ledger: its workload plan and its own invariants over synthetic histories."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest

from kit import scenario
from kit.checks import run_checks
from kit.history import Effect, FinalState, History, make_history

SC = scenario.load("fifo-ledger")
MODULE = SC.workload_module
ORDER, BALANCES = "ledger.per_group_order", "ledger.balances"


def _plan(seed: int) -> list:
    return MODULE.plan(seed, SC.workload_params)


def test_the_plan_is_seeded_and_has_what_the_params_ask() -> None:
    plan = _plan(3)
    assert plan == _plan(3) and plan != _plan(4)
    facts = [MODULE.describe(s.body) for s in plan]
    assert len({f.key for f in facts if f.valid}) == 48
    assert sum(1 for f in facts if not f.valid) == 3
    assert sum(1 for s in plan if s.duplicate_of is not None) == 6


@pytest.mark.parametrize("seed", range(1, 11))
def test_every_run_sends_poison_of_each_clause_of_the_rule(seed: int) -> None:
    # A worker's handler of each kind of poison is reached whatever the seed (a seed whose
    # poison was all JSON let a worker that crashes on unparsable bodies pass: kit mutate).
    poison = [s.body for s in _plan(seed) if not MODULE.describe(s.body).valid]
    parsed = [json.loads(b) if b.startswith("{") else None for b in poison]
    amounts = [p.get("amount_cents", "missing") for p in parsed if p is not None]
    assert parsed.count(None) == 1  # not JSON at all
    assert 0 in amounts  # an amount of 0
    assert any(type(a) is not int for a in amounts)  # a field missing or mistyped


def test_every_send_is_in_its_accounts_group_and_resends_have_new_dedup_ids() -> None:
    plan = _plan(5)
    for n, send in enumerate(plan):
        facts = MODULE.describe(send.body)
        if facts.valid:
            assert send.group == facts.fields["account_id"]
        if send.duplicate_of is not None:
            original = plan[send.duplicate_of]
            assert send.duplicate_of < n and original.body == send.body
            assert send.dedup_id != original.dedup_id
    assert len({s.dedup_id for s in plan}) == len(plan)


def test_each_account_opens_with_a_credit_and_order_matters_somewhere() -> None:
    # Applying an account's postings in a different order must change a status somewhere,
    # or the order invariant would have nothing to catch.
    plan = _plan(1)
    postings: dict[str, list[int]] = {}
    for send in plan:
        facts = MODULE.describe(send.body)
        if facts.valid and send.duplicate_of is None:
            postings.setdefault(facts.fields["account_id"], []).append(
                facts.fields["amount_cents"])
    assert all(amounts[0] > 0 for amounts in postings.values())
    assert any(_statuses(a) != _statuses(list(reversed(a))) for a in postings.values())


def _statuses(amounts: list[int]) -> list[str]:
    balance, out = 0, []
    for amount in amounts:
        rejected = amount < 0 and balance + amount < 0
        out.append("rejected" if rejected else "applied")
        balance += 0 if rejected else amount
    return out


@pytest.mark.parametrize(("body", "valid"), [
    ('{"posting_id": "p", "account_id": "a", "amount_cents": -5}', True),
    ('{"posting_id": "p", "account_id": "a", "amount_cents": 0}', False),
    ('{"posting_id": "p", "account_id": "a", "amount_cents": true}', False),
    ('{"posting_id": "p", "account_id": "a", "amount_cents": "5"}', False),
    ('{"posting_id": "p", "amount_cents": 5}', False),
    ("not json", False),
])
def test_poison_rule(body: str, valid: bool) -> None:
    assert MODULE.describe(body).valid is valid


# --- the invariants ------------------------------------------------------------------------

SENT = [("p1", "a", 100), ("p2", "a", -150), ("p3", "a", 80), ("q1", "b", 50)]


def _history(written: list[str], *, statuses: dict[str, str] | None = None,
             balances: dict[str, int] | None = None, seq: bool = True) -> History:
    """Sends in SENT order, then the effect rows of `written` (in write order)."""
    ops: list[dict[str, Any]] = []
    for n, (key, account, amount) in enumerate(SENT):
        fields = {"posting_id": key, "account_id": account, "amount_cents": amount}
        ops.append({"index": n, "time": float(n), "process": "producer", "kind": "send",
                    "value": {"message_id": f"m-{key}", "body": json.dumps(fields), "key": key,
                              "fields": fields, "valid": True, "duplicate_of": None}})
    amounts = {key: (account, amount) for key, account, amount in SENT}
    balance: Counter[str] = Counter()
    rows = []
    for n, key in enumerate(written):
        account, amount = amounts[key]
        status = "rejected" if amount < 0 and balance[account] + amount < 0 else "applied"
        balance[account] += amount if status == "applied" else 0
        status = (statuses or {}).get(key, status)
        row = {"posting_id": key, "account_id": account, "amount_cents": amount,
               "status": status, **({"seq": n + 1} if seq else {})}
        rows.append(Effect(key=key, fields=row))
    accounts = [{"account_id": a, "balance_cents": b}
                for a, b in ({**balance, **(balances or {})}).items()]
    return make_history(ops, FinalState(effects=rows, tables={"postings": [], "accounts":
                                                                accounts}))


def _verdicts(history: History) -> dict[str, str]:
    return {i: r.verdict for i, r in run_checks(history, {ORDER: {}, BALANCES: {}},
                                                SC.registry).items()}


def test_in_order_postings_pass_both() -> None:
    assert _verdicts(_history(["p1", "q1", "p2", "p3"])) == {ORDER: "pass", BALANCES: "pass"}


def test_out_of_order_fails_the_order_and_names_the_pair() -> None:
    # p3 before p2: the arithmetic is right for that order, the order is wrong.
    history = _history(["p1", "p3", "p2", "q1"])
    results = run_checks(history, {ORDER: {}, BALANCES: {}}, SC.registry)
    assert results[BALANCES].verdict == "pass"
    assert results[ORDER].verdict == "fail"
    assert results[ORDER].evidence["out_of_order"]["members"] == [
        {"account": "a", "written_first": "p3", "sent_first": "p2"}]


def test_a_gap_fails_the_order() -> None:
    result = run_checks(_history(["p1", "p3", "q1"]), {ORDER: {}}, SC.registry)[ORDER]
    assert result.verdict == "fail"
    assert result.evidence["gaps"]["members"] == [
        {"account": "a", "missing": "p2", "before": "p3"}]


def test_a_missing_tail_is_loss_not_a_gap() -> None:
    # Nothing of account a after p1 was written: delivery.no_loss's business alone.
    assert _verdicts(_history(["p1", "q1"]))[ORDER] == "pass"


def test_a_wrong_status_or_balance_fails_the_balances() -> None:
    assert _verdicts(_history(["p1", "p2", "p3", "q1"],
                              statuses={"p2": "applied"}))[BALANCES] == "fail"
    assert _verdicts(_history(["p1", "p2", "p3", "q1"],
                              balances={"b": 100}))[BALANCES] == "fail"


def test_rows_without_seq_break_the_contract() -> None:
    results = run_checks(_history(["p1", "p2"], seq=False), {ORDER: {}, BALANCES: {}},
                         SC.registry)
    assert {r.verdict for r in results.values()} == {"fail"}
    assert "without an integer seq" in results[ORDER].summary
