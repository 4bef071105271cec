"""Each fidelity fix restores one AWS behaviour moto lacks (kit/sandbox/fidelity.py)."""

from __future__ import annotations

import json

import pytest

from kit.sandbox import Sandbox
from kit.workload import aws


@pytest.fixture(scope="module")
def sqs():  # noqa: ANN201
    with Sandbox(postgres=False) as sb:
        yield aws.client("sqs", sb.moto.url)


def test_redrive_allow_policy_is_stored_and_read_back(sqs) -> None:  # noqa: ANN001
    # AWS: SetQueueAttributes stores RedriveAllowPolicy; GetQueueAttributes returns it.
    url = sqs.create_queue(QueueName="dlq-allow")["QueueUrl"]
    policy = ('{"redrivePermission":"byQueue",'
              '"sourceQueueArns":["arn:aws:sqs:us-east-1:123456789012:src"]}')
    sqs.set_queue_attributes(QueueUrl=url, Attributes={"RedriveAllowPolicy": policy})
    got = sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["All"])["Attributes"]
    assert got["RedriveAllowPolicy"] == policy
    named = sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["RedriveAllowPolicy"])
    assert named["Attributes"]["RedriveAllowPolicy"] == policy


def test_queue_without_redrive_allow_policy_does_not_report_one(sqs) -> None:  # noqa: ANN001
    url = sqs.create_queue(QueueName="plain")["QueueUrl"]
    got = sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["All"])["Attributes"]
    assert "RedriveAllowPolicy" not in got


def test_released_message_does_not_jump_the_queue(sqs) -> None:  # noqa: ANN001
    # AWS: standard queues are best-effort ordered; a released message is not handed back
    # ahead of the messages already waiting (moto would return it first, forever).
    url = sqs.create_queue(QueueName="fair")["QueueUrl"]
    for body in ("first", "second", "third"):
        sqs.send_message(QueueUrl=url, MessageBody=body)
    got = sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=1)["Messages"][0]
    assert got["Body"] == "first"
    sqs.change_message_visibility(QueueUrl=url, ReceiptHandle=got["ReceiptHandle"],
                                  VisibilityTimeout=0)
    bodies = [sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=1)["Messages"][0]["Body"]
              for _ in range(3)]
    assert bodies == ["second", "third", "first"]


def test_a_conditional_bucket_policy_deny_does_not_deny_when_its_condition_fails() -> None:
    # AWS: a Deny applies only when its Condition holds; over HTTPS (every SDK call),
    # `aws:SecureTransport = false` does not hold. moto ignored the condition (403).
    with Sandbox(postgres=False) as sb:
        s3 = aws.client("s3", sb.moto.url)
        s3.create_bucket(Bucket="tls-only")
        s3.put_bucket_policy(Bucket="tls-only", Policy=json.dumps({
            "Version": "2012-10-17", "Statement": [{
                "Sid": "DenyInsecureTransport", "Effect": "Deny", "Principal": "*",
                "Action": "s3:*", "Resource": ["arn:aws:s3:::tls-only",
                                               "arn:aws:s3:::tls-only/*"],
                "Condition": {"Bool": {"aws:SecureTransport": "false"}}}]}))
        s3.put_object(Bucket="tls-only", Key="k", Body=b"x")
        assert s3.get_object(Bucket="tls-only", Key="k")["Body"].read() == b"x"
