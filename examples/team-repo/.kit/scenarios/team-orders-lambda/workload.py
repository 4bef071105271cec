"""team-orders-lambda's workload: order events the orders API publishes to order-events.

Each valid event is one order (the message key is order_id), of one of the event types the
notifications subscription admits. Poison events are JSON objects with an admitted
event_type (so the subscription's body filter delivers them, as it would in production)
that the consumer must refuse: a missing or mistyped field, a non-positive amount, an
empty id, a currency that is not an ISO 4217 code. The rule (app/lambda/handler.py,
`parse`) is restated in `describe`.
"""

from __future__ import annotations

import json
import random
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from kit.workload.api import Described, Send, run_tag

FIELDS = {"event_type": str, "order_id": str, "customer_id": str, "amount_cents": int,
          "currency": str}
CURRENCIES = ("EUR", "GBP", "USD", "SEK")


class Params(BaseModel):
    """workload.params of scenario.yaml."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    orders: int = Field(ge=1, le=10_000)  # distinct valid orders
    customers: int = Field(ge=1)
    duplicate_sends: int = Field(ge=0)  # valid events published again (a retried publish)
    poison: int = Field(ge=0)
    event_types: tuple[str, ...] = Field(min_length=1)  # what the subscription admits


def _poison(event_type: str, i: int) -> str:
    """The i-th poison event: admitted by the filter policy, refused by the consumer."""
    good = {"event_type": event_type, "order_id": f"p-{i}", "customer_id": "c-poison",
            "amount_cents": 100, "currency": "EUR"}
    defects: list[dict[str, Any]] = [
        {"amount_cents": 0}, {"amount_cents": -250}, {"amount_cents": True},
        {"amount_cents": "100"}, {"customer_id": None}, {"currency": "euro"},
        {"order_id": ""}, {"order_id": 7},
    ]
    return json.dumps({**good, **defects[i % len(defects)]})


def _unwrap(body: str) -> Any:
    """The published event, whether a subscription enveloped it or not."""
    doc = json.loads(body)
    if isinstance(doc, dict) and doc.get("Type") == "Notification" and "Message" in doc:
        return json.loads(doc["Message"])
    return doc


def describe(body: str) -> Described:
    """The order fields of a body (kept for poison, so a recorded poison event is seen) and
    whether it is a valid order event by the consumer's rule."""
    try:
        doc = _unwrap(body)
    except (json.JSONDecodeError, UnicodeDecodeError, TypeError):
        doc = None
    if not isinstance(doc, dict):
        return Described(None, {}, False)
    fields = {name: doc.get(name) if isinstance(doc.get(name), kind)
              and not isinstance(doc.get(name), bool) else None
              for name, kind in FIELDS.items()}
    order_id = doc.get("order_id") if isinstance(doc.get("order_id"), str) else None
    valid = (all(value is not None for value in fields.values())
             and fields["amount_cents"] > 0 and bool(fields["order_id"])
             and bool(fields["customer_id"]) and len(fields["currency"]) == 3
             and fields["currency"].isupper())
    return Described(order_id, fields, valid)


def plan(seed: int, params: Params) -> list[Send]:
    """A deterministic publish plan for `seed`: shuffled orders of every admitted event type,
    each duplicate somewhere after its original, poison spread through."""
    rng = random.Random(seed)
    tag = run_tag(seed, "team-orders-lambda")
    valid = [json.dumps({"event_type": params.event_types[i % len(params.event_types)],
                         "order_id": f"o-{tag}-{i:04d}",
                         "customer_id": f"c-{rng.randrange(params.customers)}",
                         "amount_cents": rng.randint(100, 99_999),
                         "currency": rng.choice(CURRENCIES)})
             for i in range(params.orders)]
    rng.shuffle(valid)
    sends = list(valid)
    for body in rng.sample(valid, min(params.duplicate_sends, len(valid))):
        sends.insert(rng.randint(sends.index(body) + 1, len(sends)), body)
    for i in range(params.poison):
        # Of the first admitted type: a filter policy that drops another type loses
        # valid events only, so its defect is a loss and not also poison kept from the DLQ.
        sends.insert(rng.randint(0, len(sends)), _poison(params.event_types[0], i))
    first: dict[str, int] = {}
    out = []
    for index, body in enumerate(sends):
        repeat = body in first and describe(body).valid
        out.append(Send(body, duplicate_of=first[body] if repeat else None))
        first.setdefault(body, index)
    return out
