"""idempotency.effects_once."""

from __future__ import annotations

import pytest

from kit.checks.idempotency import EFFECTS_ONCE
from kit.checks.idempotency import check_effects_once as check

from .builder import PARAMS, healthy_run, params_of

TOTALS = PARAMS["idempotency.effects_once"]


def _row(run, order_id: str) -> dict:
    return next(r for r in run.final["orders"] if r["order_id"] == order_id)


def test_passes_on_a_healthy_run_with_duplicate_sends():
    run = healthy_run(seed=7)
    assert run.duplicates  # the producer sent some orders twice
    r = check(run.build(), TOTALS)
    assert r.verdict == "pass", r.summary
    assert r.evidence["rows"] == 20


def test_duplicate_row_fails():
    run = healthy_run(seed=7)
    run.final["orders"].append(dict(_row(run, "o-0004")))
    r = check(run.build(), TOTALS)
    assert r.verdict == "fail"
    assert r.evidence["duplicated"]["members"] == [{"key": "o-0004", "rows": 2}]
    assert "1 duplicated" in r.summary


def test_double_counted_balance_fails():
    run = healthy_run(seed=7)
    row = _row(run, "o-0002")
    run.final["balances"][row["customer_id"]] += row["amount_cents"]  # applied twice
    r = check(run.build(), TOTALS)
    assert r.verdict == "fail"
    (member,) = r.evidence["wrong_total"]["members"]
    assert member["customer_id"] == row["customer_id"]
    assert member["actual"] - member["expected"] == row["amount_cents"]


def test_wrong_amount_fails():
    run = healthy_run(seed=7)
    row = _row(run, "o-0001")
    sent = row["amount_cents"]
    row["amount_cents"] = sent * 100  # e.g. dollars taken for cents
    r = check(run.build(), TOTALS)
    assert r.verdict == "fail"
    assert r.evidence["wrong_value"]["members"] == [
        {"key": "o-0001", "field": "amount_cents", "sent": sent, "recorded": sent * 100}]


def test_wrong_customer_fails():
    run = healthy_run(seed=7)
    _row(run, "o-0001")["customer_id"] = "someone-else"
    r = check(run.build(), TOTALS)
    assert r.verdict == "fail" and r.evidence["wrong_value"]["members"][0]["field"] == \
        "customer_id"


def test_lost_order_alone_does_not_fail_this_invariant():
    run = healthy_run(seed=7)
    row = _row(run, "o-0005")
    run.final["orders"].remove(row)
    run.final["balances"][row["customer_id"]] -= row["amount_cents"]
    assert check(run.build(), TOTALS).verdict == "pass"


def test_partial_write_balance_without_order_fails():
    # The balance was updated but the order row never written (no transaction).
    run = healthy_run(seed=7)
    run.final["orders"].remove(_row(run, "o-0005"))
    r = check(run.build(), TOTALS)
    assert r.verdict == "fail" and r.evidence["wrong_total"]["count"] == 1


def test_missing_balance_row_fails():
    run = healthy_run(seed=7)
    customer = _row(run, "o-0000")["customer_id"]
    del run.final["balances"][customer]
    r = check(run.build(), TOTALS)
    assert r.verdict == "fail"
    assert r.evidence["wrong_total"]["members"][0]["actual"] == 0


def test_zero_balance_for_a_customer_without_orders_is_fine():
    run = healthy_run(seed=7)
    run.final["balances"]["c-nobody"] = 0
    assert check(run.build(), TOTALS).verdict == "pass"


def test_poison_recorded_fails():
    run = healthy_run(seed=7)
    run.final["orders"].append({"order_id": "p-zero", "customer_id": "c-1", "amount_cents": 0})
    r = check(run.build(), TOTALS)
    assert r.verdict == "fail" and r.evidence["poison_recorded"]["count"] == 1


@pytest.mark.parametrize("order_id", ["o-never", None])
def test_row_never_sent_fails(order_id):
    run = healthy_run(seed=7)
    run.final["orders"].append({"order_id": order_id, "customer_id": "c-1", "amount_cents": 1})
    r = check(run.build(), TOTALS)
    assert r.verdict == "fail" and r.evidence["never_sent"]["members"][0]["key"] == order_id


@pytest.mark.parametrize("missing", ["orders", "balances"])
def test_needs_orders_and_balances(missing):
    run = healthy_run(seed=7)
    run.final[missing] = None
    r = check(run.build(), TOTALS)
    assert r.verdict == "error" and "were not read" in r.summary


def test_without_totals_only_the_rows_are_judged():
    run = healthy_run(seed=7)
    run.final["balances"]["c-1"] = 10**9
    assert check(run.build(), params_of(EFFECTS_ONCE)).verdict == "pass"
    r = check(run.build(), params_of(EFFECTS_ONCE, totals={'table': 'customer_balances'}))
    assert r.verdict == "error" and "exactly table, key, value, sum" in r.summary


def test_no_final_state_is_an_error():
    run = healthy_run(seed=7)
    run.b.final = None
    assert check(run.build(), TOTALS).verdict == "error"
