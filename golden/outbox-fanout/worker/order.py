"""The order message format, the poison rule, and the event of a recorded order."""

from __future__ import annotations

import json
from dataclasses import dataclass

STATUSES = ("placed", "cancelled")


@dataclass(frozen=True)
class Order:
    order_id: str
    customer_id: str
    amount_cents: int
    status: str

    @property
    def event_type(self) -> str:
        return f"order.{self.status}"

    def event(self, event_id: str) -> str:
        """The order's event, as published: the same event_id on every publish of it."""
        return json.dumps({"event_id": event_id, "event_type": self.event_type,
                           "order_id": self.order_id, "customer_id": self.customer_id,
                           "amount_cents": self.amount_cents, "status": self.status})


def parse(body: str) -> Order | None:
    """The order in a message body, or None if the body is poison.

    Poison: not a JSON object, a missing or mistyped field, amount_cents <= 0, or a status
    other than placed or cancelled. A bool is not an integer here, although Python's bool
    is a subclass of int.
    """
    try:
        obj = json.loads(body)
    except (ValueError, RecursionError):
        return None
    if not isinstance(obj, dict):
        return None
    order_id, customer_id, amount, status = (obj.get("order_id"), obj.get("customer_id"),
                                             obj.get("amount_cents"), obj.get("status"))
    if not isinstance(order_id, str) or not isinstance(customer_id, str):
        return None
    if type(amount) is not int or amount <= 0 or status not in STATUSES:
        return None
    return Order(order_id, customer_id, amount, status)
