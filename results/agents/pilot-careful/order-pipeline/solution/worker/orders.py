"""Message validation."""

import json
from typing import NamedTuple, Optional, Tuple


class Order(NamedTuple):
    order_id: str
    customer_id: str
    amount_cents: int


def parse_order(body) -> Tuple[Optional[Order], str]:
    """Return (order, "") for a valid order, or (None, reason) for poison."""
    if not isinstance(body, str):
        return None, "body is not text"
    try:
        data = json.loads(body)
    except (ValueError, RecursionError):
        return None, "body is not JSON"
    if not isinstance(data, dict):
        return None, "body is not a JSON object"
    for field in ("order_id", "customer_id"):
        if field not in data:
            return None, f"{field} missing"
        if not isinstance(data[field], str):
            return None, f"{field} is not a string"
    if "amount_cents" not in data:
        return None, "amount_cents missing"
    amount = data["amount_cents"]
    # bool is a subclass of int in Python, but true/false are not integers here.
    if isinstance(amount, bool) or not isinstance(amount, int):
        return None, "amount_cents is not an integer"
    if amount <= 0:
        return None, "amount_cents is not positive"
    return Order(data["order_id"], data["customer_id"], amount), ""
