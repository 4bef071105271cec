"""The SQS event and the partial batch response, as the Lambda developer guide has them:
"Using Lambda with Amazon SQS" (the example event) and "Implementing partial batch
responses" (which responses are a success, a partial failure, a complete failure)."""

from __future__ import annotations

import pytest

from kit.lambdas.event import event, verdict

QUEUE = "arn:aws:sqs:us-east-1:123456789012:orders"
MESSAGE = {"MessageId": "m1", "ReceiptHandle": "r1", "Body": '{"id": 1}', "MD5OfBody": "abc",
           "Attributes": {"ApproximateReceiveCount": "2", "SentTimestamp": "1"},
           "MessageAttributes": {"kind": {"DataType": "String", "StringValue": "order"}}}


def test_a_record_has_every_field_of_the_documented_event() -> None:
    (record,) = event([MESSAGE], QUEUE, "us-east-1")["Records"]
    assert record == {
        "messageId": "m1", "receiptHandle": "r1", "body": '{"id": 1}',
        "attributes": {"ApproximateReceiveCount": "2", "SentTimestamp": "1"},
        "messageAttributes": {"kind": {"stringValue": "order", "stringListValues": [],
                                       "binaryListValues": [], "dataType": "String"}},
        "md5OfBody": "abc", "eventSource": "aws:sqs", "eventSourceARN": QUEUE,
        "awsRegion": "us-east-1"}


def test_binary_attributes_are_base64_in_the_event() -> None:
    message = {**MESSAGE, "MessageAttributes": {"b": {"DataType": "Binary",
                                                      "BinaryValue": b"\x00\x01"}}}
    (record,) = event([message], QUEUE, "us-east-1")["Records"]
    assert record["messageAttributes"]["b"]["binaryValue"] == "AAE="


BATCH = ["a", "b", "c"]


@pytest.mark.parametrize("response", [None, {}, {"batchItemFailures": []},
                                      {"batchItemFailures": None}])
def test_an_empty_or_null_response_is_a_complete_success(response: object) -> None:
    found = verdict(BATCH, True, response, report_failures=True)
    assert (found.delete, found.outcome) == (frozenset(BATCH), "success")


def test_reported_failures_stay_and_the_rest_is_deleted() -> None:
    found = verdict(BATCH, True, {"batchItemFailures": [{"itemIdentifier": "b"}]}, True)
    assert (found.delete, found.outcome) == (frozenset({"a", "c"}), "partial")


@pytest.mark.parametrize("failures", [[{"itemIdentifier": ""}], [{"itemIdentifier": None}],
                                      [{"itemIdentifer": "b"}], [{"itemIdentifier": "zz"}],
                                      ["b"], "b"])
def test_a_malformed_response_fails_the_whole_batch(failures: object) -> None:
    found = verdict(BATCH, True, {"batchItemFailures": failures}, True)
    assert (found.delete, found.outcome) == (frozenset(), "failed")


def test_a_response_that_is_not_an_object_fails_the_batch() -> None:
    assert verdict(BATCH, True, ["a"], True).outcome == "failed"


def test_without_report_batch_item_failures_the_response_is_ignored() -> None:
    # The handler may return a failure list; without the response type Lambda ignores it.
    found = verdict(BATCH, True, {"batchItemFailures": [{"itemIdentifier": "b"}]}, False)
    assert found.delete == frozenset(BATCH)


@pytest.mark.parametrize("report", [True, False])
def test_a_failed_invocation_deletes_nothing(report: bool) -> None:
    found = verdict(BATCH, False, None, report, "Task timed out after 3.00 seconds")
    assert (found.delete, found.outcome, found.reason) == (
        frozenset(), "failed", "Task timed out after 3.00 seconds")
