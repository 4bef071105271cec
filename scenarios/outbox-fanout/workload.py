"""outbox-fanout's workload: seeded orders (placed or cancelled), deliberate duplicate
sends, poison messages.

The poison rule (prompt.md, "Messages"): a body is poison if it is not a JSON object, a
field is missing or has the wrong type (a boolean is not an integer), amount_cents <= 0,
or status is neither "placed" nor "cancelled". `describe` also reads the events the
workers publish (the same fields, plus event_id and event_type), as the fan-out queues
hold them.
"""

from __future__ import annotations

import json
import random
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from kit.workload.api import Described, Send, run_tag

POISON_BODIES = (
    "not json at all",
    json.dumps(["an", "array"]),
    json.dumps({"order_id": "p-missing", "customer_id": "c-x", "status": "placed"}),
    json.dumps({"order_id": "p-zero", "customer_id": "c-x", "amount_cents": 0,
                "status": "placed"}),
    json.dumps({"order_id": "p-negative", "customer_id": "c-x", "amount_cents": -500,
                "status": "placed"}),
    json.dumps({"order_id": "p-bool", "customer_id": "c-x", "amount_cents": True,
                "status": "placed"}),
    json.dumps({"order_id": "p-string", "customer_id": "c-x", "amount_cents": "100",
                "status": "placed"}),
    json.dumps({"order_id": 7, "customer_id": "c-x", "amount_cents": 100}),
    json.dumps({"order_id": "p-status", "customer_id": "c-x", "amount_cents": 100,
                "status": "shipped"}),
)
STATUSES = ("placed", "cancelled")


class Params(BaseModel):
    """workload.params of scenario.yaml."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    orders: int = Field(ge=1, le=10_000)  # distinct valid orders
    customers: int = Field(ge=1)
    duplicate_sends: int = Field(ge=0)  # valid orders sent a second time (new message id)
    poison: int = Field(ge=0)
    work_seconds: float = Field(ge=0)  # the worker sleeps this long per valid order


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def describe(body: str) -> Described:
    """The order fields of a body (kept even for poison, so a recorded poison order can be
    recognised) and whether it is a valid order by the poison rule."""
    try:
        obj = json.loads(body)
    except (json.JSONDecodeError, UnicodeDecodeError, TypeError):
        obj = None
    if not isinstance(obj, dict):
        return Described(None, {}, False)
    order_id, customer_id, amount, status = (obj.get("order_id"), obj.get("customer_id"),
                                             obj.get("amount_cents"), obj.get("status"))
    fields = {"order_id": order_id if isinstance(order_id, str) else None,
              "customer_id": customer_id if isinstance(customer_id, str) else None,
              "amount_cents": amount if _is_int(amount) else None,
              "status": status if isinstance(status, str) else None}
    valid = (fields["order_id"] is not None and fields["customer_id"] is not None
             and fields["amount_cents"] is not None and fields["amount_cents"] > 0
             and fields["status"] in STATUSES)
    return Described(fields["order_id"], fields, valid)


def plan(seed: int, params: Params) -> list[Send]:
    """A deterministic send plan for `seed`: shuffled orders, each duplicate somewhere after
    its original (as a retried send would be), poison spread through."""
    rng = random.Random(seed)
    tag = run_tag(seed, "outbox-fanout")
    # Every third order is cancelled: both fan-out queues get events in every run.
    valid = [json.dumps({"order_id": f"o-{tag}-{i:04d}",
                         "customer_id": f"c-{rng.randrange(params.customers)}",
                         "amount_cents": rng.randint(100, 99_999),
                         "status": STATUSES[1] if i % 3 == 2 else STATUSES[0]})
             for i in range(params.orders)]
    rng.shuffle(valid)
    sends = list(valid)
    for body in rng.sample(valid, min(params.duplicate_sends, len(valid))):
        sends.insert(rng.randint(sends.index(body) + 1, len(sends)), body)
    for i in range(params.poison):
        sends.insert(rng.randint(0, len(sends)), POISON_BODIES[i % len(POISON_BODIES)])
    first: dict[str, int] = {}
    out = []
    for index, body in enumerate(sends):
        repeat = body in first and describe(body).valid
        out.append(Send(body, duplicate_of=first[body] if repeat else None))
        first.setdefault(body, index)
    return out
