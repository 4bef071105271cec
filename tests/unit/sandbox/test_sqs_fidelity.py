"""SQS fidelity fixes at unit level: moto in-process with the kit's fixes applied, as the
sandbox's server has them.

FIFO queues keep each message group's order when a message is released.

AWS, "Amazon SQS FIFO queues" (SQS Developer Guide): messages within a message group are
received in the order they were sent; while a message of a group is in flight, no later
message of that group is delivered; a message whose visibility timeout ends (or that is
released with ChangeMessageVisibility 0) is delivered again before the later messages of
its group.
"""

from __future__ import annotations

import threading
import time
from unittest.mock import patch

import boto3
import pytest
from botocore.exceptions import ClientError
from moto import mock_aws
from moto.sqs import models

from kit.sandbox import fidelity


def _bodies(reply: dict) -> list[str]:
    return [m["Body"] for m in reply.get("Messages", [])]


@mock_aws
def test_a_released_fifo_message_comes_back_before_the_rest_of_its_group() -> None:
    fidelity.apply_all()
    sqs = boto3.client("sqs", region_name="us-east-1")
    url = sqs.create_queue(QueueName="ledger.fifo", Attributes={
        "FifoQueue": "true", "ContentBasedDeduplication": "true"})["QueueUrl"]
    for n in range(3):
        sqs.send_message(QueueUrl=url, MessageBody=f"a{n}", MessageGroupId="A")
    first = sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=1)["Messages"][0]
    assert first["Body"] == "a0"
    # The group is locked while a0 is in flight.
    assert _bodies(sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=10)) == []
    sqs.change_message_visibility(QueueUrl=url, ReceiptHandle=first["ReceiptHandle"],
                                  VisibilityTimeout=0)
    assert _bodies(sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=10)) == [
        "a0", "a1", "a2"]


@mock_aws
def test_a_released_standard_message_still_waits_its_turn() -> None:
    # The fix that FIFO queues are exempt from: standard queues must not starve behind a
    # message released again and again.
    fidelity.apply_all()
    sqs = boto3.client("sqs", region_name="us-east-1")
    url = sqs.create_queue(QueueName="plain")["QueueUrl"]
    for body in ("first", "second"):
        sqs.send_message(QueueUrl=url, MessageBody=body)
    got = sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=1)["Messages"][0]
    sqs.change_message_visibility(QueueUrl=url, ReceiptHandle=got["ReceiptHandle"],
                                  VisibilityTimeout=0)
    assert _bodies(sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=1)) == ["second"]


@mock_aws
def test_two_concurrent_receives_never_take_the_same_message() -> None:
    # AWS, "Amazon SQS visibility timeout": a received message is hidden from every other
    # consumer. moto checks and marks without a lock; the slowed mark below opens the
    # window a preempted thread would, so both receives would take the message.
    fidelity.apply_all()
    sqs = boto3.client("sqs", region_name="us-east-1")
    url = sqs.create_queue(QueueName="contended")["QueueUrl"]
    sqs.send_message(QueueUrl=url, MessageBody="only one")
    original = models.Message.mark_received

    def slow_mark(self, visibility_timeout=None):  # noqa: ANN001, ANN202
        time.sleep(0.2)
        return original(self, visibility_timeout=visibility_timeout)

    got: list[str] = []
    with patch.object(models.Message, "mark_received", slow_mark):
        threads = [threading.Thread(target=lambda: got.extend(
            _bodies(sqs.receive_message(QueueUrl=url)))) for _ in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=10)
    assert got == ["only one"]


def _lapsed_fifo_message(sqs) -> tuple[str, str]:  # noqa: ANN001
    """A FIFO queue, and the receipt handle of its one message whose visibility has ended."""
    url = sqs.create_queue(QueueName="lapse.fifo", Attributes={
        "FifoQueue": "true", "ContentBasedDeduplication": "true"})["QueueUrl"]
    sqs.send_message(QueueUrl=url, MessageBody="m", MessageGroupId="A")
    handle = sqs.receive_message(QueueUrl=url, VisibilityTimeout=30)["Messages"][0][
        "ReceiptHandle"]
    # Its visibility timeout ends (as 30 s later), without waiting for it.
    for message in models.sqs_backends["123456789012"]["us-east-1"].queues[
            "lapse.fifo"]._messages:
        message.visible_at = 0
    return url, handle


@mock_aws
def test_a_fifo_receipt_handle_expires_with_its_visibility_timeout() -> None:
    # AWS Knowledge Center, "Why do I get a ReceiptHandleIsInvalid or InvalidParameterValue
    # error when I delete messages from my Amazon SQS queue?": the receipt handle expires
    # after the visibility timeout; the delete fails with InvalidParameterValue, "The
    # receipt handle has expired". A handle still within its timeout deletes.
    fidelity.apply_all()
    sqs = boto3.client("sqs", region_name="us-east-1")
    url, old = _lapsed_fifo_message(sqs)
    with pytest.raises(ClientError, match=r"InvalidParameterValue.*The receipt handle has "
                                          r"expired"):
        sqs.delete_message(QueueUrl=url, ReceiptHandle=old)
    batch = sqs.delete_message_batch(QueueUrl=url, Entries=[{"Id": "0", "ReceiptHandle": old}])
    assert [f["Id"] for f in batch.get("Failed", [])] == ["0"] and not batch.get("Successful")
    again = sqs.receive_message(QueueUrl=url, VisibilityTimeout=30)["Messages"]
    assert [m["Body"] for m in again] == ["m"]
    # Received again: the old handle stays expired, the new one deletes.
    with pytest.raises(ClientError, match="InvalidParameterValue"):
        sqs.delete_message(QueueUrl=url, ReceiptHandle=old)
    sqs.delete_message(QueueUrl=url, ReceiptHandle=again[0]["ReceiptHandle"])
    assert "Messages" not in sqs.receive_message(QueueUrl=url)


@mock_aws
def test_a_standard_queue_still_takes_an_old_receipt_handle() -> None:
    # The same article: "Old receipt handles might work if you're using standard SQS queues".
    fidelity.apply_all()
    sqs = boto3.client("sqs", region_name="us-east-1")
    url = sqs.create_queue(QueueName="plain-old")["QueueUrl"]
    sqs.send_message(QueueUrl=url, MessageBody="m")
    old = sqs.receive_message(QueueUrl=url, VisibilityTimeout=0)["Messages"][0]["ReceiptHandle"]
    sqs.delete_message(QueueUrl=url, ReceiptHandle=old)
    assert "Messages" not in sqs.receive_message(QueueUrl=url)
