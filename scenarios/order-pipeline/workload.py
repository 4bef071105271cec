"""order-pipeline's workload: seeded orders, deliberate duplicate sends, poison messages.

The poison rule (prompt.md, "Messages"): a body is poison if it is not a JSON object, a
field is missing or has the wrong type (a boolean is not an integer), or amount_cents <= 0.
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
    json.dumps({"order_id": "p-missing", "customer_id": "c-x"}),
    json.dumps({"order_id": "p-zero", "customer_id": "c-x", "amount_cents": 0}),
    json.dumps({"order_id": "p-negative", "customer_id": "c-x", "amount_cents": -500}),
    json.dumps({"order_id": "p-bool", "customer_id": "c-x", "amount_cents": True}),
    json.dumps({"order_id": "p-string", "customer_id": "c-x", "amount_cents": "100"}),
    json.dumps({"order_id": 7, "customer_id": "c-x", "amount_cents": 100}),
)


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
    order_id, customer_id, amount = (obj.get("order_id"), obj.get("customer_id"),
                                     obj.get("amount_cents"))
    fields = {"order_id": order_id if isinstance(order_id, str) else None,
              "customer_id": customer_id if isinstance(customer_id, str) else None,
              "amount_cents": amount if _is_int(amount) else None}
    valid = (fields["order_id"] is not None and fields["customer_id"] is not None
             and fields["amount_cents"] is not None and fields["amount_cents"] > 0)
    return Described(fields["order_id"], fields, valid)


def plan(seed: int, params: Params) -> list[Send]:
    """A deterministic send plan for `seed`: shuffled orders, each duplicate somewhere after
    its original (as a retried send would be), poison spread through."""
    rng = random.Random(seed)
    tag = run_tag(seed, "order-pipeline")
    valid = [json.dumps({"order_id": f"o-{tag}-{i:04d}",
                         "customer_id": f"c-{rng.randrange(params.customers)}",
                         "amount_cents": rng.randint(100, 99_999)})
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


_ORDER_FIELDS = ("customer_id", "amount_cents")


def upgrade_history(data: dict[str, Any]) -> dict[str, Any]:
    """A `kit.history/1` document (order-pipeline's own fields, from before histories held
    `key` and `fields`) in the `/2` shape: `History.load(path, upgrade=upgrade_history)`."""
    ops = []
    for op in data.get("ops", []):
        value = dict(op["value"])
        if op["kind"] in ("send", "receive", "recorded"):
            value["key"] = value.pop("order_id", None)
            moved = {k: value.pop(k) for k in _ORDER_FIELDS if k in value}
            if op["kind"] != "receive":
                value["fields"] = {"order_id": value["key"], **moved}
        ops.append({**op, "value": value})
    final = data.get("final")
    if final is not None:
        final = {
            "effects": None if final.get("orders") is None else [
                {"key": row.get("order_id"), "fields": row} for row in final["orders"]],
            "tables": None if final.get("balances") is None else {"customer_balances": [
                {"customer_id": c, "balance_cents": b} for c, b in final["balances"].items()]},
            "queues": None if final.get("dlq_messages") is None else {
                "queue.orders": final.get("queue_messages") or [],
                "queue.dlq": final["dlq_messages"]},
            "db_instances": None if final.get("db_instance") is None else {
                "database.main": final["db_instance"]},
            "rds_config": final.get("rds_config"), "iam": final.get("iam"),
        }
    return {**data, "format": "kit.history/2", "ops": ops, "final": final}
