"""outbox-fanout: its workload plan and its own invariants over synthetic histories."""

from __future__ import annotations

import json
from typing import Any

import pytest

from kit import scenario
from kit.checks import run_checks
from kit.history import Effect, FinalState, History, QueueMessage, make_history

SC = scenario.load("outbox-fanout")
MODULE = SC.workload_module
PUBLISHED, ROUTED, STABLE = "outbox.published", "outbox.routed", "outbox.stable_ids"
QUEUE = {"placed": "queue.fulfilment", "cancelled": "queue.refunds"}
ORDERS = [("o1", "c1", 100, "placed"), ("o2", "c2", 250, "cancelled"),
          ("o3", "c1", 75, "placed")]


def test_the_plan_is_seeded_and_has_both_statuses_duplicates_and_poison() -> None:
    plan = MODULE.plan(3, SC.workload_params)
    assert plan == MODULE.plan(3, SC.workload_params) != MODULE.plan(4, SC.workload_params)
    facts = [MODULE.describe(s.body) for s in plan]
    assert len({f.key for f in facts if f.valid}) == 40
    assert {f.fields["status"] for f in facts if f.valid} == {"placed", "cancelled"}
    assert sum(1 for f in facts if not f.valid) == 4
    assert sum(1 for s in plan if s.duplicate_of is not None) == 6


@pytest.mark.parametrize(("status", "valid"), [
    ("placed", True), ("cancelled", True), ("shipped", False), ("", False), (None, False)])
def test_poison_rule_on_status(status: Any, valid: bool) -> None:
    body = {"order_id": "o", "customer_id": "c", "amount_cents": 5, "status": status}
    assert MODULE.describe(json.dumps(body)).valid is valid


def _event(order: tuple[str, str, int, str], event_id: str | None = None,
           **changes: Any) -> dict[str, Any]:
    key, customer, amount, status = order
    return {"event_id": event_id or f"e-{key}", "event_type": f"order.{status}",
            "order_id": key, "customer_id": customer, "amount_cents": amount,
            "status": status, **changes}


def _envelope(event: dict[str, Any]) -> str:
    return json.dumps({"Type": "Notification", "MessageId": "n", "Message": json.dumps(event),
                       "TopicArn": "arn:aws:sns:us-east-1:123456789012:order-events"})


def _history(recorded: list[str], queues: dict[str, list[Any]]) -> History:
    """Every order of ORDERS sent, `recorded` in the orders table, the fan-out queues
    holding `queues` (events as dicts, or bodies as text)."""
    ops = []
    for n, (key, customer, amount, status) in enumerate(ORDERS):
        fields = {"order_id": key, "customer_id": customer, "amount_cents": amount,
                  "status": status}
        ops.append({"index": n, "time": float(n), "process": "producer", "kind": "send",
                    "value": {"message_id": f"m-{key}", "body": json.dumps(fields),
                              "key": key, "fields": fields, "valid": True,
                              "duplicate_of": None}})
    rows = [Effect(key=o[0], fields={"order_id": o[0]}) for o in ORDERS if o[0] in recorded]
    held = {q: [QueueMessage(message_id=f"{q}-{n}", receive_count=0,
                             body=b if isinstance(b, str) else json.dumps(b))
                for n, b in enumerate(queues.get(q, []))] for q in QUEUE.values()}
    return make_history(ops, FinalState(effects=rows, queues=held))


def _delivered(*extra: tuple[str, Any]) -> dict[str, list[Any]]:
    """Each order's event in its queue once, plus `extra` (queue, body) messages."""
    queues: dict[str, list[Any]] = {q: [] for q in QUEUE.values()}
    for order in ORDERS:
        queues[QUEUE[order[3]]].append(_event(order))
    for queue, body in extra:
        queues[queue].append(body)
    return queues


def _verdicts(history: History) -> dict[str, str]:
    results = run_checks(history, {PUBLISHED: {}, ROUTED: {}, STABLE: {}}, SC.registry)
    return {i: r.verdict for i, r in results.items()}


ALL = ["o1", "o2", "o3"]


def test_each_event_once_in_its_queue_passes_all_three() -> None:
    assert set(_verdicts(_history(ALL, _delivered())).values()) == {"pass"}


def test_a_redelivery_under_the_same_event_id_counts_once() -> None:
    twice = _delivered(("queue.fulfilment", _event(ORDERS[0])))
    assert set(_verdicts(_history(ALL, twice)).values()) == {"pass"}


def test_a_recorded_order_without_its_event_fails_published_only() -> None:
    queues = _delivered()
    queues["queue.refunds"] = []
    results = run_checks(_history(ALL, queues), {PUBLISHED: {}}, SC.registry)
    assert results[PUBLISHED].verdict == "fail"
    assert results[PUBLISHED].evidence["missing"]["members"] == [
        {"order_id": "o2", "status": "cancelled", "queue": "queue.refunds"}]
    assert _verdicts(_history(ALL, queues))[ROUTED] == "pass"


def test_an_event_in_the_other_queue_does_not_count_as_published() -> None:
    queues = _delivered()
    queues["queue.refunds"] = []
    queues["queue.fulfilment"].append(_event(ORDERS[1]))
    assert _verdicts(_history(ALL, queues)) == {PUBLISHED: "fail", ROUTED: "fail",
                                                STABLE: "pass"}


@pytest.mark.parametrize(("queue", "body", "why"), [
    ("queue.refunds", _event(ORDERS[0]), "does not route to queue.refunds"),
    ("queue.fulfilment", _envelope(_event(ORDERS[0])), "SNS envelope"),
    ("queue.fulfilment", "not json", "not an event"),
    ("queue.fulfilment", _event(ORDERS[0], amount_cents=101), "differs from the order in "
     "amount_cents"),
    ("queue.fulfilment", _event(ORDERS[0], event_type="order.cancelled"),
     "does not route"),
    ("queue.fulfilment", {k: v for k, v in _event(ORDERS[0]).items() if k != "event_id"},
     "not an event"),
])
def test_a_message_a_queue_should_not_hold_fails_routed(queue: str, body: Any,
                                                        why: str) -> None:
    result = run_checks(_history(ALL, _delivered((queue, body))), {ROUTED: {}},
                        SC.registry)[ROUTED]
    assert result.verdict == "fail"
    assert why in result.evidence["wrong"]["example"]["why"]


def test_an_event_of_an_order_not_recorded_fails_routed_not_published() -> None:
    # o3's event went out although o3 never committed (published before the commit).
    verdicts = _verdicts(_history(["o1", "o2"], _delivered()))
    assert verdicts == {PUBLISHED: "pass", ROUTED: "fail", STABLE: "pass"}


def test_an_enveloped_event_still_counts_as_published() -> None:
    queues = _delivered()
    queues["queue.fulfilment"] = [_envelope(e) for e in queues["queue.fulfilment"]]
    assert _verdicts(_history(ALL, queues)) == {PUBLISHED: "pass", ROUTED: "fail",
                                                STABLE: "pass"}


def test_an_order_published_under_two_ids_fails_stable_ids_only() -> None:
    again = _delivered(("queue.fulfilment", _event(ORDERS[0], event_id="e-new")))
    results = run_checks(_history(ALL, again), {STABLE: {}}, SC.registry)
    assert results[STABLE].verdict == "fail"
    assert results[STABLE].evidence["several_ids"]["members"] == [
        {"order_id": "o1", "event_ids": ["e-new", "e-o1"]}]
    assert _verdicts(_history(ALL, again))[PUBLISHED] == "pass"


def test_two_orders_sharing_an_event_id_fail_stable_ids() -> None:
    queues = _delivered()
    queues["queue.fulfilment"] = [_event(ORDERS[0], event_id="same"),
                                  _event(ORDERS[2], event_id="same")]
    result = run_checks(_history(ALL, queues), {STABLE: {}}, SC.registry)[STABLE]
    assert result.verdict == "fail"
    assert result.evidence["shared_ids"]["members"] == [
        {"event_id": "same", "order_ids": ["o1", "o3"]}]


def test_without_the_final_state_or_sends_the_checks_cannot_judge() -> None:
    empty = make_history([], FinalState(effects=[], queues={}))
    assert set(_verdicts(empty).values()) == {"error"}
    assert set(_verdicts(make_history([])).values()) == {"error"}
