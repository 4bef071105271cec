"""FIFO queues on the sandbox's emulator behave as AWS documents them (fifo-ledger relies
on each behaviour here).

AWS, SQS Developer Guide, "Amazon SQS FIFO queues" and "Exactly-once processing in Amazon
SQS": within a message group messages are received in the order sent; while a message of
a group is in flight no later message of that group is delivered; a message whose
visibility timeout ends is delivered again before later messages of its group; a message
with the same deduplication ID (explicit, or the SHA-256 of the body with content-based
deduplication) sent within the 5-minute deduplication interval is accepted but not
delivered again. "Using dead-letter queues": the dead-letter queue of a FIFO queue must
also be a FIFO queue; after maxReceiveCount receives a message moves there, and the rest
of its group is delivered.
"""

from __future__ import annotations

import json

import pytest
from botocore.exceptions import ClientError

from kit import aws
from kit.run.sandbox import Sandbox


@pytest.fixture(scope="module")
def sqs():  # noqa: ANN201
    with Sandbox(postgres=False) as sb:
        yield aws.client("sqs", sb.moto.url)


def _fifo(sqs, name: str, **attributes: str) -> str:  # noqa: ANN001
    return sqs.create_queue(QueueName=f"{name}.fifo", Attributes={
        "FifoQueue": "true", "ContentBasedDeduplication": "true", **attributes})["QueueUrl"]


def _arn(sqs, url: str) -> str:  # noqa: ANN001
    return sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["QueueArn"])[
        "Attributes"]["QueueArn"]


def _receive(sqs, url: str, n: int = 10, **extra: int) -> list[dict]:  # noqa: ANN001
    return sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=n, **extra).get(
        "Messages", [])


def test_a_group_is_locked_while_one_of_its_messages_is_in_flight(sqs) -> None:  # noqa: ANN001
    url = _fifo(sqs, "locked")
    for n in range(2):
        sqs.send_message(QueueUrl=url, MessageBody=f"a{n}", MessageGroupId="A")
    sqs.send_message(QueueUrl=url, MessageBody="b0", MessageGroupId="B")
    assert [m["Body"] for m in _receive(sqs, url, 1)] == ["a0"]
    # a1 waits for a0; another group is served.
    assert [m["Body"] for m in _receive(sqs, url)] == ["b0"]


def test_a_message_whose_visibility_lapses_comes_back_before_later_ones(sqs) -> None:  # noqa: ANN001
    url = _fifo(sqs, "lapse", VisibilityTimeout="1")
    for n in range(3):
        sqs.send_message(QueueUrl=url, MessageBody=f"a{n}", MessageGroupId="A")
    assert [m["Body"] for m in _receive(sqs, url, 1)] == ["a0"]
    # Long polling until the lapse: the next delivery of group A is a0 again.
    again = _receive(sqs, url, 1, WaitTimeSeconds=5)
    assert [m["Body"] for m in again] == ["a0"]
    assert _receive(sqs, url) == []  # a0 is in flight again: a1 waits


def test_messages_of_a_batch_whose_visibility_lapses_come_back_first_and_in_order(
        sqs) -> None:  # noqa: ANN001
    # A worker took a0 and a1 in one receive and died (fifo-ledger's pilot attempt, issue
    # 47): once their timeout lapses, they are the next of group A, before a2 sent since.
    url = _fifo(sqs, "batch-lapse", VisibilityTimeout="1")
    for n in range(2):
        sqs.send_message(QueueUrl=url, MessageBody=f"a{n}", MessageGroupId="A")
    assert [m["Body"] for m in _receive(sqs, url)] == ["a0", "a1"]
    sqs.send_message(QueueUrl=url, MessageBody="a2", MessageGroupId="A")
    again = [m["Body"] for m in _receive(sqs, url, WaitTimeSeconds=5)]
    assert again and again == ["a0", "a1", "a2"][:len(again)], again


def test_a_released_message_comes_back_before_later_ones(sqs) -> None:  # noqa: ANN001
    url = _fifo(sqs, "released")
    for n in range(3):
        sqs.send_message(QueueUrl=url, MessageBody=f"a{n}", MessageGroupId="A")
    first = _receive(sqs, url, 1)[0]
    sqs.change_message_visibility(QueueUrl=url, ReceiptHandle=first["ReceiptHandle"],
                                  VisibilityTimeout=0)
    assert [m["Body"] for m in _receive(sqs, url)] == ["a0", "a1", "a2"]


def test_duplicates_within_the_deduplication_interval_are_not_delivered(sqs) -> None:  # noqa: ANN001
    url = _fifo(sqs, "dedup")
    for _ in range(2):  # content-based: the same body twice
        sqs.send_message(QueueUrl=url, MessageBody="same", MessageGroupId="A")
    for _ in range(2):  # explicit: the same id, different bodies
        sqs.send_message(QueueUrl=url, MessageBody=json.dumps({"n": _}), MessageGroupId="A",
                         MessageDeduplicationId="posting-1")
    sqs.send_message(QueueUrl=url, MessageBody="same", MessageGroupId="A",
                     MessageDeduplicationId="a-new-id")  # a new id is a new message
    assert [m["Body"] for m in _receive(sqs, url)] == ["same", '{"n": 0}', "same"]


def test_a_fifo_queue_needs_a_fifo_dead_letter_queue(sqs) -> None:  # noqa: ANN001
    standard = sqs.create_queue(QueueName="std-dlq")["QueueUrl"]
    policy = json.dumps({"deadLetterTargetArn": _arn(sqs, standard), "maxReceiveCount": 2})
    with pytest.raises(ClientError, match="InvalidParameterCombination|fifo"):
        _fifo(sqs, "bad-redrive", RedrivePolicy=policy)


def test_poison_moves_to_the_fifo_dlq_and_its_group_goes_on(sqs) -> None:  # noqa: ANN001
    dlq = _fifo(sqs, "ledger-dlq")
    url = _fifo(sqs, "ledger", RedrivePolicy=json.dumps(
        {"deadLetterTargetArn": _arn(sqs, dlq), "maxReceiveCount": 2}))
    for body in ("poison", "a1"):
        sqs.send_message(QueueUrl=url, MessageBody=body, MessageGroupId="A")
    for _ in range(2):  # received and released, maxReceiveCount times
        got = _receive(sqs, url, 1)[0]
        assert got["Body"] == "poison"
        sqs.change_message_visibility(QueueUrl=url, ReceiptHandle=got["ReceiptHandle"],
                                      VisibilityTimeout=0)
    assert [m["Body"] for m in _receive(sqs, url)] == ["a1"]
    assert [m["Body"] for m in _receive(sqs, dlq)] == ["poison"]


def test_a_duplicate_of_a_deleted_message_is_still_not_delivered(sqs) -> None:  # noqa: ANN001
    url = _fifo(sqs, "dedup-after-delete")
    sqs.send_message(QueueUrl=url, MessageBody="x", MessageGroupId="A",
                     MessageDeduplicationId="posting-9")
    got = _receive(sqs, url)[0]
    sqs.delete_message(QueueUrl=url, ReceiptHandle=got["ReceiptHandle"])
    sqs.send_message(QueueUrl=url, MessageBody="x", MessageGroupId="A",
                     MessageDeduplicationId="posting-9")
    assert _receive(sqs, url) == []
