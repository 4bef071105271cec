"""order-notifier: records order events from the order-notifications queue in DynamoDB.

Invoked by the SQS event source mapping with up to `batch_size` records. Each record's body
is the order event as the orders API published it (raw delivery; an SNS envelope is
unwrapped too, in case a subscription is switched to enveloped delivery). A valid event is
written in one transaction: the order item, only if the order is new (so a redelivered or
re-published event changes nothing), and the customer's running total.

Records that could not be processed are returned as `batchItemFailures`: SQS retries only
those, and after the queue's maxReceiveCount moves them to the dead-letter queue.
"""

from __future__ import annotations

import json
import logging
import os
from dataclasses import dataclass
from typing import Any

LOG = logging.getLogger("order_notifier")
LOG.setLevel(os.environ.get("LOG_LEVEL", "INFO"))

REQUIRED = {"event_type": str, "order_id": str, "customer_id": str, "amount_cents": int,
            "currency": str}

_dynamodb = None


class InvalidEvent(ValueError):
    """The record is not an order event we can ever process: retrying will not help."""


class AlreadyRecorded(Exception):
    """The order was recorded by an earlier delivery."""


@dataclass(frozen=True)
class OrderEvent:
    event_type: str
    order_id: str
    customer_id: str
    amount_cents: int
    currency: str


def unwrap(body: str) -> Any:
    """The published message of an SQS record body, whether SNS wrapped it or not."""
    try:
        doc = json.loads(body)
    except (json.JSONDecodeError, TypeError) as exc:
        raise InvalidEvent(f"body is not JSON: {exc}") from None
    if isinstance(doc, dict) and doc.get("Type") == "Notification" and "Message" in doc:
        try:
            return json.loads(doc["Message"])
        except (json.JSONDecodeError, TypeError) as exc:
            raise InvalidEvent(f"SNS message is not JSON: {exc}") from None
    return doc


def parse(body: str) -> OrderEvent:
    """The order event in a record body; InvalidEvent says what is wrong with it."""
    doc = unwrap(body)
    if not isinstance(doc, dict):
        raise InvalidEvent(f"expected a JSON object, got {type(doc).__name__}")
    for name, kind in REQUIRED.items():
        value = doc.get(name)
        # bool is an int to Python, never an amount to us.
        if not isinstance(value, kind) or isinstance(value, bool):
            raise InvalidEvent(f"field {name} must be a {kind.__name__}, got {value!r}")
    if doc["amount_cents"] <= 0:
        raise InvalidEvent(f"amount_cents must be positive, got {doc['amount_cents']}")
    if not doc["order_id"] or not doc["customer_id"]:
        raise InvalidEvent("order_id and customer_id must not be empty")
    if len(doc["currency"]) != 3 or not doc["currency"].isupper():
        raise InvalidEvent(f"currency must be an ISO 4217 code, got {doc['currency']!r}")
    return OrderEvent(doc["event_type"], doc["order_id"], doc["customer_id"], doc["amount_cents"],
                      doc["currency"])


def transaction(event: OrderEvent, notifications: str, totals: str) -> list[dict[str, Any]]:
    """The TransactWriteItems of one order: the order item if new, and the customer's total."""
    return [
        {"Put": {
            "TableName": notifications,
            "Item": {"order_id": {"S": event.order_id},
                     "event_type": {"S": event.event_type},
                     "customer_id": {"S": event.customer_id},
                     "amount_cents": {"N": str(event.amount_cents)},
                     "currency": {"S": event.currency}},
            "ConditionExpression": "attribute_not_exists(order_id)",
        }},
        {"Update": {
            "TableName": totals,
            "Key": {"customer_id": {"S": event.customer_id}},
            "UpdateExpression": "ADD total_cents :amount, orders :one",
            "ExpressionAttributeValues": {":amount": {"N": str(event.amount_cents)},
                                          ":one": {"N": "1"}},
        }},
    ]


def client() -> Any:
    """The DynamoDB client, created once per execution environment."""
    global _dynamodb
    if _dynamodb is None:
        import boto3

        _dynamodb = boto3.client("dynamodb")
    return _dynamodb


def record(event: OrderEvent) -> None:
    """Write the order once; AlreadyRecorded if an earlier delivery did."""
    items = transaction(event, os.environ["NOTIFICATIONS_TABLE"],
                        os.environ["CUSTOMER_TOTALS_TABLE"])
    dynamodb = client()
    try:
        dynamodb.transact_write_items(TransactItems=items)
    except dynamodb.exceptions.TransactionCanceledException as exc:
        reasons = [r.get("Code") for r in exc.response.get("CancellationReasons", [])]
        if reasons and reasons[0] == "ConditionalCheckFailed":
            raise AlreadyRecorded(event.order_id) from None
        raise


def process(message_id: str, body: str) -> bool:
    """Process one record; False if it must be retried (or dead-lettered)."""
    try:
        event = parse(body)
    except InvalidEvent as exc:
        # Left to the redrive policy: after maxReceiveCount it is in the DLQ for a person.
        LOG.warning("message %s is not a valid order event: %s", message_id, exc)
        return False
    try:
        record(event)
    except AlreadyRecorded:
        LOG.info("order %s already recorded (message %s)", event.order_id, message_id)
    except Exception:  # noqa: BLE001 - any other failure is retried by SQS
        LOG.exception("order %s (message %s) not recorded", event.order_id, message_id)
        return False
    else:
        LOG.info("order %s recorded for customer %s", event.order_id, event.customer_id)
    return True


def handler(event: dict[str, Any], context: Any) -> dict[str, Any]:
    """Lambda entry point: process each SQS record, report the ones that failed."""
    failures = [{"itemIdentifier": r["messageId"]}
                for r in event.get("Records", [])
                if not process(r["messageId"], r.get("body", ""))]
    if failures:
        LOG.warning("%d of %d records failed", len(failures), len(event.get("Records", [])))
    return {"batchItemFailures": failures}

