"""What a message means: valid order or poison."""

import json
import uuid
from dataclasses import dataclass

STATUSES = ("placed", "cancelled")
BIGINT_MAX = 2 ** 63 - 1

# Event ids are derived from the order id: every copy of an order's event has
# the same id (whoever records or publishes it, however often), and two orders
# never share one.
EVENT_NAMESPACE = uuid.UUID("0b7f6a52-3c1e-4e4b-9d55-7a1f2f0c9e11")


@dataclass(frozen=True)
class Order:
    order_id: str
    customer_id: str
    amount_cents: int
    status: str

    @property
    def event_id(self):
        return str(uuid.uuid5(EVENT_NAMESPACE, "order:" + self.order_id))


def parse_order(body):
    """The Order a message body holds, or None if the message is poison."""
    if not isinstance(body, str):
        return None
    try:
        doc = json.loads(body)
    except (ValueError, RecursionError):
        return None
    if not isinstance(doc, dict):
        return None
    order_id = doc.get("order_id")
    customer_id = doc.get("customer_id")
    amount = doc.get("amount_cents")
    status = doc.get("status")
    if not isinstance(order_id, str) or not isinstance(customer_id, str):
        return None
    if not isinstance(status, str) or status not in STATUSES:
        return None
    if isinstance(amount, bool) or not isinstance(amount, int):
        return None
    if amount <= 0:
        return None
    if amount > BIGINT_MAX:
        # Cannot be recorded as sent; the contract says this never happens,
        # and a message that can never be recorded belongs in the DLQ.
        return None
    return Order(order_id, customer_id, amount, status)
