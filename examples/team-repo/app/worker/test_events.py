"""Unit tests of the fulfilment worker's event parsing (no AWS, no database)."""

from __future__ import annotations

import json

import pytest
from worker.events import InvalidEvent, OrderEvent, parse

EVENT = {"event_type": "order.created", "order_id": "o-1", "customer_id": "c-1",
         "amount_cents": 990, "currency": "GBP"}


def test_unwraps_the_sns_envelope() -> None:
    body = json.dumps({"Type": "Notification", "MessageId": "m", "Message": json.dumps(EVENT)})
    assert parse(body) == OrderEvent("order.created", "o-1", "c-1", 990, "GBP")


def test_takes_a_raw_event_too() -> None:
    assert parse(json.dumps(EVENT)).order_id == "o-1"


@pytest.mark.parametrize("body", [
    "{", json.dumps(7), json.dumps({**EVENT, "amount_cents": 0}),
    json.dumps({**EVENT, "amount_cents": False}),
    json.dumps({k: v for k, v in EVENT.items() if k != "order_id"}),
    json.dumps({**EVENT, "currency": "gbp"}),
])
def test_refuses_invalid_events(body: str) -> None:
    with pytest.raises(InvalidEvent):
        parse(body)
