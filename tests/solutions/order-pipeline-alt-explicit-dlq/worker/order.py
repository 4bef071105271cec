"""The order message format and the poison rule."""

from __future__ import annotations

import json
from dataclasses import dataclass


@dataclass(frozen=True)
class Order:
    order_id: str
    customer_id: str
    amount_cents: int


def parse(body: str) -> Order | None:
    """The order in a message body, or None if the body is poison.

    Poison: not a JSON object, a missing or mistyped field, or amount_cents <= 0. A bool is
    not an integer here, although Python's bool is a subclass of int.
    """
    try:
        obj = json.loads(body)
    except (ValueError, RecursionError):
        return None
    if not isinstance(obj, dict):
        return None
    order_id, customer_id, amount = (obj.get("order_id"), obj.get("customer_id"),
                                     obj.get("amount_cents"))
    if not isinstance(order_id, str) or not isinstance(customer_id, str):
        return None
    if type(amount) is not int or amount <= 0:
        return None
    return Order(order_id, customer_id, amount)
