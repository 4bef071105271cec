"""outbox-fanout's own invariants: the events the workers publish for recorded orders, as the
fan-out queues hold them at the end (the kit drains every declared queue after the run).

prompt.md pins the event: a JSON object {event_id, event_type, order_id, customer_id,
amount_cents, status}, event_type "order.<status>", published to the topic with the
message attribute event_type; order.placed events reach the fulfilment queue only,
order.cancelled events the refunds queue only, each as the raw event (no SNS envelope).
Consumers drop an event whose event_id they have seen, so an event published twice under
one event_id counts once, and under two ids counts twice.

- outbox.published: every recorded order's event is in the queue its type routes to (no
  event lost between the commit and the publish).
- outbox.routed: every message in a fan-out queue is a raw, well-formed event of a type
  the queue takes, for a recorded order, with that order's fields (no event for an order
  that was not recorded, none in the wrong queue, none its consumers cannot read).
- outbox.stable_ids: each order's event carries one event_id wherever and however often it
  was delivered, and no two orders share one (consumers' dedupe works).

The three are independent: an event lost fails only the first, one in the wrong queue
or enveloped only the second, one republished under a new id only the third.
"""

from __future__ import annotations

import json
from collections import defaultdict
from typing import Any

from kit.checks.result import CheckResult, Params, anomaly, error, judged, plural
from kit.checks.sent import nothing_sent, sent
from kit.history import History, QueueMessage
from kit.workload.api import Check
from kit.workload.notifications import unwrap

PUBLISHED = "outbox.published"
ROUTED = "outbox.routed"
STABLE_IDS = "outbox.stable_ids"
# event_type -> the fan-out queue that takes it (prompt.md, "Events").
ROUTES = {"order.placed": "queue.fulfilment", "order.cancelled": "queue.refunds"}
ORDER_FIELDS = ("customer_id", "amount_cents", "status")
EVENT_FIELDS = {"event_id": str, "event_type": str, "order_id": str, "customer_id": str,
                "amount_cents": int, "status": str}


def _event(body: str) -> dict[str, Any] | None:
    """The event a queue's message carries (inside an SNS envelope or raw), or None if it
    is not a JSON object with every event field of its type."""
    try:
        doc = json.loads(unwrap(body))
    except (ValueError, RecursionError):
        return None
    if not isinstance(doc, dict):
        return None
    for name, kind in EVENT_FIELDS.items():
        value = doc.get(name)
        if not isinstance(value, kind) or isinstance(value, bool) or value == "":
            return None
    return doc


def _state(history: History) -> tuple[dict[str, dict[str, Any]], set[str],
                                      dict[str, list[QueueMessage]]] | str:
    """(valid orders sent: key -> fields, the keys recorded, fan-out queue -> messages), or
    what is missing to judge."""
    final = history.final
    if final is None or final.effects is None or final.queues is None:
        return "the orders table and the fan-out queues were not read at the end"
    missing = [q for q in ROUTES.values() if q not in final.queues]
    if missing:
        return f"the fan-out queue(s) {', '.join(missing)} were not read at the end"
    orders = {key: dict(op.value.fields) for key, op in sent(history).valid.items()}
    if not orders:
        return f"{nothing_sent(history)}: nothing to judge"
    recorded = {row.key for row in final.effects if row.key in orders}
    return orders, recorded, {q: final.queues[q] for q in ROUTES.values()}


def _route(order: dict[str, Any]) -> str:
    return ROUTES[f"order.{order['status']}"]


def check_published(history: History, p: Params) -> CheckResult:
    """outbox.published: every recorded order's event reached the queue its type routes to."""
    state = _state(history)
    if isinstance(state, str):
        return error(PUBLISHED, state, p)
    orders, recorded, queues = state
    delivered = {(queue, event["order_id"]) for queue, messages in queues.items()
                 for event in map(_event, (m.body for m in messages)) if event}
    missing = [{"order_id": key, "status": orders[key]["status"], "queue": _route(orders[key])}
               for key in sorted(recorded) if (_route(orders[key]), key) not in delivered]
    evidence = {"recorded": len(recorded), "missing": anomaly(missing)}
    # Pass rule: each recorded order has an event (any copy, any id) in its type's queue.
    if missing:
        summary = (f"{plural(len(missing), 'recorded order')} without its event in the "
                   f"queue its type routes to (e.g. {missing[0]['order_id']} in "
                   f"{missing[0]['queue']})")
    else:
        summary = f"every recorded order's event reached its queue ({len(recorded)} orders)"
    return judged(PUBLISHED, not missing, summary, evidence, p)


def _misrouted(queue: str, message: QueueMessage, orders: dict[str, dict[str, Any]],
               recorded: set[str]) -> str | None:
    """Why `message` should not be in `queue`, or None."""
    event = _event(message.body)
    if event is None:
        return "not an event: a JSON object with every event field, each of its type"
    if unwrap(message.body) != message.body:
        return "an SNS envelope, not the raw event its consumers read"
    if ROUTES.get(event["event_type"]) != queue:
        return f"event_type {event['event_type']!r} does not route to {queue}"
    order = orders.get(event["order_id"])
    if order is None or event["order_id"] not in recorded:
        return "an event for an order that was not recorded"
    wrong = [f for f in ORDER_FIELDS if event[f] != order[f]]
    if event["event_type"] != f"order.{order['status']}":
        wrong.append("event_type")
    return f"differs from the order in {', '.join(wrong)}" if wrong else None


def check_routed(history: History, p: Params) -> CheckResult:
    """outbox.routed: the fan-out queues hold only raw, well-formed events of the types
    they take, of recorded orders, with those orders' fields."""
    state = _state(history)
    if isinstance(state, str):
        return error(ROUTED, state, p)
    orders, recorded, queues = state
    wrong = [{"queue": queue, "message_id": m.message_id, "why": why, "body": m.body[:200]}
             for queue, messages in queues.items() for m in messages
             if (why := _misrouted(queue, m, orders, recorded)) is not None]
    held = sum(map(len, queues.values()))
    evidence = {"messages": held, "wrong": anomaly(wrong)}
    # Pass rule: no message of a fan-out queue is anything but its own type's raw event.
    if wrong:
        summary = (f"{plural(len(wrong), 'message')} of the fan-out queues should not be "
                   f"there (e.g. in {wrong[0]['queue']}: {wrong[0]['why']})")
    else:
        summary = f"the fan-out queues hold only their own raw events ({held} messages)"
    return judged(ROUTED, not wrong, summary, evidence, p)


def check_stable_ids(history: History, p: Params) -> CheckResult:
    """outbox.stable_ids: one event_id per order across every copy, and none shared."""
    state = _state(history)
    if isinstance(state, str):
        return error(STABLE_IDS, state, p)
    _, _, queues = state
    ids: dict[str, set[str]] = defaultdict(set)  # order_id -> event ids
    owners: dict[str, set[str]] = defaultdict(set)  # event_id -> order ids
    for messages in queues.values():
        for event in filter(None, (_event(m.body) for m in messages)):
            ids[event["order_id"]].add(event["event_id"])
            owners[event["event_id"]].add(event["order_id"])
    several = [{"order_id": k, "event_ids": sorted(v)} for k, v in sorted(ids.items())
               if len(v) > 1]
    shared = [{"event_id": k, "order_ids": sorted(v)} for k, v in sorted(owners.items())
              if len(v) > 1]
    evidence = {"orders": len(ids), "several_ids": anomaly(several),
                "shared_ids": anomaly(shared)}
    # Pass rule: consumers deduping by event_id apply each order's event exactly once.
    if several or shared:
        parts = [f"{plural(len(several), 'order')} published under several event_ids"
                 if several else "",
                 f"{plural(len(shared), 'event_id')} shared by several orders" if shared else ""]
        summary = "consumers deduping by event_id would not apply each event once: " + \
            ", ".join(x for x in parts if x)
    else:
        summary = f"each order's event has one event_id of its own ({len(ids)} orders)"
    return judged(STABLE_IDS, not (several or shared), summary, evidence, p)


CHECKS = {PUBLISHED: Check(check_published), ROUTED: Check(check_routed),
          STABLE_IDS: Check(check_stable_ids)}
