"""Unit tests of order-notifier (no AWS: DynamoDB's answers are stubbed by botocore)."""

from __future__ import annotations

import json

import boto3
import handler
import pytest
from botocore.stub import Stubber

EVENT = {"event_type": "order.created", "order_id": "o-1", "customer_id": "c-1",
         "amount_cents": 1250, "currency": "EUR"}


def test_parses_a_raw_event() -> None:
    event = handler.parse(json.dumps(EVENT))
    assert event == handler.OrderEvent("order.created", "o-1", "c-1", 1250, "EUR")


def test_unwraps_an_sns_envelope() -> None:
    envelope = {"Type": "Notification", "MessageId": "m-1", "Message": json.dumps(EVENT)}
    assert handler.parse(json.dumps(envelope)).order_id == "o-1"


@pytest.mark.parametrize("body", [
    "not json",
    json.dumps(["a", "list"]),
    json.dumps({**EVENT, "amount_cents": 0}),
    json.dumps({**EVENT, "amount_cents": -3}),
    json.dumps({**EVENT, "amount_cents": True}),
    json.dumps({**EVENT, "amount_cents": "12"}),
    json.dumps({k: v for k, v in EVENT.items() if k != "customer_id"}),
    json.dumps({**EVENT, "order_id": ""}),
    json.dumps({**EVENT, "currency": "euro"}),
    json.dumps({"Type": "Notification", "Message": "not json"}),
])
def test_refuses_invalid_events(body: str) -> None:
    with pytest.raises(handler.InvalidEvent):
        handler.parse(body)


def test_the_order_item_is_written_only_if_new() -> None:
    put, update = handler.transaction(handler.parse(json.dumps(EVENT)), "orders", "totals")
    assert put["Put"]["ConditionExpression"] == "attribute_not_exists(order_id)"
    assert put["Put"]["Item"]["amount_cents"] == {"N": "1250"}
    assert update["Update"]["Key"] == {"customer_id": {"S": "c-1"}}
    assert update["Update"]["ExpressionAttributeValues"][":amount"] == {"N": "1250"}


def test_reports_only_the_records_that_failed(monkeypatch: pytest.MonkeyPatch) -> None:
    written: list[str] = []
    monkeypatch.setattr(handler, "record", lambda event: written.append(event.order_id))
    records = [{"messageId": "m-1", "body": json.dumps(EVENT)},
               {"messageId": "m-2", "body": "not json"},
               {"messageId": "m-3", "body": json.dumps({**EVENT, "order_id": "o-3"})}]
    result = handler.handler({"Records": records}, None)
    assert result == {"batchItemFailures": [{"itemIdentifier": "m-2"}]}
    assert written == ["o-1", "o-3"]


def test_an_order_already_recorded_is_not_a_failure(monkeypatch: pytest.MonkeyPatch) -> None:
    def already(event: handler.OrderEvent) -> None:
        raise handler.AlreadyRecorded(event.order_id)

    monkeypatch.setattr(handler, "record", already)
    result = handler.handler({"Records": [{"messageId": "m-1", "body": json.dumps(EVENT)}]},
                             None)
    assert result == {"batchItemFailures": []}


def test_a_write_that_fails_is_retried(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(event: handler.OrderEvent) -> None:
        raise RuntimeError("ProvisionedThroughputExceededException")

    monkeypatch.setattr(handler, "record", broken)
    result = handler.handler({"Records": [{"messageId": "m-1", "body": json.dumps(EVENT)}]},
                             None)
    assert result == {"batchItemFailures": [{"itemIdentifier": "m-1"}]}


def _stubbed(monkeypatch: pytest.MonkeyPatch, reasons: list[str]) -> Stubber:
    """The handler's DynamoDB client, answering TransactWriteItems as cancelled."""
    dynamodb = boto3.client("dynamodb", region_name="eu-west-1", aws_access_key_id="x",
                            aws_secret_access_key="x")
    stub = Stubber(dynamodb)
    stub.add_client_error("transact_write_items", "TransactionCanceledException",
                          modeled_fields={"CancellationReasons": [{"Code": c} for c in reasons]})
    stub.activate()
    monkeypatch.setattr(handler, "_dynamodb", dynamodb)
    monkeypatch.setenv("NOTIFICATIONS_TABLE", "orders")
    monkeypatch.setenv("CUSTOMER_TOTALS_TABLE", "totals")
    return stub


def test_a_failed_condition_means_already_recorded(monkeypatch: pytest.MonkeyPatch) -> None:
    _stubbed(monkeypatch, ["ConditionalCheckFailed", "None"])
    with pytest.raises(handler.AlreadyRecorded):
        handler.record(handler.parse(json.dumps(EVENT)))


def test_another_cancellation_is_retried(monkeypatch: pytest.MonkeyPatch) -> None:
    _stubbed(monkeypatch, ["None", "TransactionConflict"])
    result = handler.handler({"Records": [{"messageId": "m-1", "body": json.dumps(EVENT)}]},
                             None)
    assert result == {"batchItemFailures": [{"itemIdentifier": "m-1"}]}
