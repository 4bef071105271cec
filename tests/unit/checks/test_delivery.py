"""delivery.no_loss, delivery.poison_to_dlq, delivery.no_valid_in_dlq."""

from __future__ import annotations

import json

import pytest

from kit.checks.delivery import (
    NO_VALID_IN_DLQ,
    POISON_TO_DLQ,
    check_no_loss,
    check_no_valid_in_dlq,
    check_poison_to_dlq,
)

from .builder import HistoryBuilder, finish_run, healthy_run, params_of


def _drop_row(run, order_id: str) -> None:
    run.final["orders"] = [r for r in run.final["orders"] if r["order_id"] != order_id]


# -- delivery.no_loss -------------------------------------------------------------------

def test_no_loss_passes_on_a_healthy_run():
    r = check_no_loss(healthy_run(seed=2).build(), {})
    assert r.verdict == "pass" and r.evidence["sent"] == 20


def test_lost_order_fails_with_its_id_and_trail():
    run = healthy_run(seed=2)
    _drop_row(run, "o-0007")
    r = check_no_loss(run.build(), {})
    assert r.verdict == "fail"
    lost = r.evidence["lost"]
    assert lost["members"] == ["o-0007"] and lost["count"] == 1
    assert lost["example"]["message_id"] == run.orders["o-0007"]
    assert [e["kind"] for e in lost["example"]["trail"]] == ["receive", "delete"]
    assert "1 of 20 valid messages lost" in r.summary


def test_order_sent_twice_counts_once_and_lists_both_messages():
    run = healthy_run(seed=2)
    dup, original = next(iter(run.duplicates.items()))
    order_id = json.loads(run.b.bodies[original])["order_id"]
    _drop_row(run, order_id)
    r = check_no_loss(run.build(), {})
    assert r.evidence["lost"]["count"] == 1
    assert r.evidence["lost"]["example"]["message_ids"] == sorted([original, dup])


def test_no_loss_needs_the_final_orders():
    run = healthy_run(seed=2)
    run.final["orders"] = None
    assert check_no_loss(run.build(), {}).verdict == "error"
    run.b.final = None
    assert check_no_loss(run.build(), {}).verdict == "error"


def test_no_loss_without_valid_sends_is_an_error():
    b = HistoryBuilder(seed=2)
    b.send("poison")
    b.final = {"orders": []}
    r = check_no_loss(b.build(), {})
    assert r.verdict == "error" and "no valid message was sent" in r.summary


# -- delivery.poison_to_dlq -------------------------------------------------------------

def test_poison_to_dlq_passes_on_a_healthy_run():
    r = check_poison_to_dlq(healthy_run(seed=2).build(), params_of(POISON_TO_DLQ, max_receives=3))
    assert r.verdict == "pass" and r.evidence["in_dlq"] == 5


def test_poison_missing_from_dlq_fails():
    run = healthy_run(seed=2)
    gone = run.final["dlq_messages"].pop(0)
    run.final["queue_messages"].append(gone)  # e.g. no redrive policy: stuck in the queue
    r = check_poison_to_dlq(run.build(), params_of(POISON_TO_DLQ))
    assert r.verdict == "fail"
    assert r.evidence["missing_from_dlq"]["members"] == [gone["message_id"]]
    assert r.evidence["missing_still_in_queue"] == 1
    assert "1 not in the DLQ" in r.summary


def test_poison_over_received_fails():
    run = healthy_run(seed=2)
    run.final["dlq_messages"][1]["receive_count"] = 5  # maxReceiveCount 5, bound 3
    r = check_poison_to_dlq(run.build(), params_of(POISON_TO_DLQ, max_receives=3))
    assert r.verdict == "fail"
    assert r.evidence["over_received"]["members"] == [
        {"message_id": run.poison[1], "receives": 5, "max_receives": 3}]
    r = check_poison_to_dlq(run.build(), params_of(POISON_TO_DLQ, max_receives=5))
    assert r.verdict == "pass"


def test_poison_over_received_counted_from_worker_receives():
    # The DLQ count can be reset (an explicit move): the recorded receives still count.
    run = healthy_run(seed=2, max_receives=4)
    for m in run.final["dlq_messages"]:
        m["receive_count"] = 0
    r = check_poison_to_dlq(run.build(), params_of(POISON_TO_DLQ, max_receives=3))
    assert r.verdict == "fail" and r.evidence["over_received"]["count"] == 5


def test_poison_recorded_fails():
    run = healthy_run(seed=2)
    zero = next(m for m in run.poison if "p-zero" in run.b.bodies[m])
    run.final["orders"].append({"order_id": "p-zero", "customer_id": "c-1", "amount_cents": 0})
    r = check_poison_to_dlq(run.build(), params_of(POISON_TO_DLQ))
    assert r.verdict == "fail"
    assert r.evidence["recorded"]["members"][0]["message_id"] == zero
    assert "1 recorded as effects" in r.summary


def test_poison_recorded_then_deleted_still_fails():
    # The observer saw the row even though it is gone from the final table.
    run = healthy_run(seed=2, finish=False)
    zero = next(m for m in run.poison if "p-zero" in run.b.bodies[m])
    run.b.record(zero)
    finish_run(run)
    r = check_poison_to_dlq(run.build(), params_of(POISON_TO_DLQ))
    assert r.verdict == "fail" and r.evidence["recorded"]["count"] == 1


def test_explicit_move_by_the_worker_passes():
    # The worker re-sends the body unchanged to the DLQ (new id, fresh receive count).
    run = healthy_run(seed=2, max_receives=1)
    for n, m in enumerate(run.final["dlq_messages"]):
        m["message_id"] = f"moved-{n}"
        m["receive_count"] = 0
    r = check_poison_to_dlq(run.build(), params_of(POISON_TO_DLQ, max_receives=3))
    assert r.verdict == "pass" and r.evidence["moved_by_worker"] == 5


def test_identical_poison_bodies_need_one_dlq_message_each():
    b = HistoryBuilder(seed=2)
    first, second = b.send("oops"), b.send("oops")
    b.final = {"dlq_messages": [{"message_id": "moved", "body": "oops", "receive_count": 0}]}
    r = check_poison_to_dlq(b.build(), params_of(POISON_TO_DLQ))
    assert r.verdict == "fail" and r.evidence["missing_from_dlq"]["members"] == [second]
    assert first != second


@pytest.mark.parametrize("final", [None, {"orders": []}])
def test_poison_to_dlq_needs_the_dlq(final):
    run = healthy_run(seed=2)
    run.b.final = final
    r = check_poison_to_dlq(run.build(), params_of(POISON_TO_DLQ))
    assert r.verdict == "error" and "was not read at the end" in r.summary


def test_poison_to_dlq_without_poison_is_an_error():
    b = HistoryBuilder(seed=2)
    b.send_order("o-1", "c-1", 100)
    b.final = {"dlq_messages": []}
    assert check_poison_to_dlq(b.build(), params_of(POISON_TO_DLQ)).verdict == "error"


# -- delivery.no_valid_in_dlq -----------------------------------------------------------

def test_no_valid_in_dlq_passes_on_a_healthy_run():
    r = check_no_valid_in_dlq(healthy_run(seed=2).build(), params_of(NO_VALID_IN_DLQ))
    assert r.verdict == "pass" and r.evidence["dlq_messages"] == 5


def test_valid_order_redriven_to_dlq_fails():
    run = healthy_run(seed=2)
    mid = run.orders["o-0003"]
    run.final["dlq_messages"].append(
        {"message_id": mid, "body": run.b.bodies[mid], "receive_count": 3})
    r = check_no_valid_in_dlq(run.build(), params_of(NO_VALID_IN_DLQ))
    assert r.verdict == "fail"
    assert r.evidence["valid_in_dlq"]["members"] == [
        {"message_id": mid, "key": "o-0003", "receive_count": 3, "recorded": True}]


def test_valid_order_moved_to_dlq_by_the_worker_fails():
    # New message id, body re-serialised: still a valid order by the poison rule.
    run = healthy_run(seed=2)
    body = json.dumps({"amount_cents": 5, "customer_id": "c-9", "order_id": "o-x"})
    run.final["dlq_messages"].append({"message_id": "moved-1", "body": body,
                                      "receive_count": 0})
    r = check_no_valid_in_dlq(run.build(), params_of(NO_VALID_IN_DLQ))
    assert r.verdict == "fail" and r.evidence["valid_in_dlq"]["members"][0]["key"] == "o-x"


def test_no_valid_in_dlq_needs_the_dlq():
    run = healthy_run(seed=2)
    run.final["dlq_messages"] = None
    assert check_no_valid_in_dlq(run.build(), params_of(NO_VALID_IN_DLQ)).verdict == "error"
