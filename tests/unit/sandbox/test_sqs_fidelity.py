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
