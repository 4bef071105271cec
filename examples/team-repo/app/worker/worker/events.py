"""Order events as they arrive on order-fulfilment: SNS envelope, JSON event, validation."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

REQUIRED = {"event_type": str, "order_id": str, "customer_id": str, "amount_cents": int,
            "currency": str}


class InvalidEvent(ValueError):
    """The message is not an order event we can ever process: retrying will not help."""


@dataclass(frozen=True)
class OrderEvent:
    event_type: str
    order_id: str
    customer_id: str
    amount_cents: int
    currency: str


def _json(text: Any, what: str) -> Any:
    try:
        return json.loads(text)
    except (json.JSONDecodeError, TypeError) as exc:
        raise InvalidEvent(f"{what} is not JSON: {exc}") from None


def parse(body: str) -> OrderEvent:
    """The order event in a message body (SNS-enveloped or raw); InvalidEvent if none."""
    doc = _json(body, "body")
    if isinstance(doc, dict) and doc.get("Type") == "Notification" and "Message" in doc:
        doc = _json(doc["Message"], "SNS message")
    if not isinstance(doc, dict):
        raise InvalidEvent(f"expected a JSON object, got {type(doc).__name__}")
    for name, kind in REQUIRED.items():
        value = doc.get(name)
        if not isinstance(value, kind) or isinstance(value, bool):
            raise InvalidEvent(f"field {name} must be a {kind.__name__}, got {value!r}")
    if doc["amount_cents"] <= 0:
        raise InvalidEvent(f"amount_cents must be positive, got {doc['amount_cents']}")
    if not doc["order_id"] or not doc["customer_id"]:
        raise InvalidEvent("order_id and customer_id must not be empty")
    if len(doc["currency"]) != 3 or not doc["currency"].isupper():
        raise InvalidEvent(f"currency must be an ISO 4217 code, got {doc['currency']!r}")
    return OrderEvent(*(doc[name] for name in REQUIRED))
