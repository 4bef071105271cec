"""The emulator as the kit's Lambda service relies on it (kit/sandbox/fidelity/lambda_esm.py
and what moto's Lambda API stores), against a real moto server."""

from __future__ import annotations

import io
import json
import zipfile
from collections.abc import Iterator

import pytest

from kit import aws
from kit.sandbox import Sandbox


@pytest.fixture(scope="module")
def sandbox() -> Iterator[Sandbox]:
    with Sandbox(postgres=False) as sb:
        yield sb


def _package() -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as zf:
        zf.writestr("handler.py", "def handle(event, context):\n    return None\n")
    return out.getvalue()


def test_a_mapped_queue_keeps_its_messages_for_the_poller(sandbox: Sandbox) -> None:
    """"Using Lambda with Amazon SQS": "Lambda polls the queue and invokes your Lambda
    function synchronously with an event that contains queue messages": a sent message
    waits in the queue, unreceived, until the mapping's poller (the kit's) receives it,
    its ApproximateReceiveCount then 1. moto would receive it inside SendMessage."""
    iam, lam, sqs = (aws.client(s, sandbox.moto.url) for s in ("iam", "lambda", "sqs"))
    role = iam.create_role(RoleName="fn-role", AssumeRolePolicyDocument=json.dumps({
        "Version": "2012-10-17", "Statement": [{
            "Effect": "Allow", "Principal": {"Service": "lambda.amazonaws.com"},
            "Action": "sts:AssumeRole"}]}))["Role"]["Arn"]
    fn = lam.create_function(FunctionName="fn", Runtime="python3.11", Role=role,
                             Handler="handler.handle", Code={"ZipFile": _package()})
    url = sqs.create_queue(QueueName="mapped")["QueueUrl"]
    arn = sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["QueueArn"])[
        "Attributes"]["QueueArn"]
    lam.create_event_source_mapping(EventSourceArn=arn, FunctionName=fn["FunctionArn"],
                                    BatchSize=5)
    sqs.send_message(QueueUrl=url, MessageBody="hello")
    attrs = sqs.get_queue_attributes(QueueUrl=url, AttributeNames=[
        "ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible"])["Attributes"]
    assert attrs == {"ApproximateNumberOfMessages": "1",
                     "ApproximateNumberOfMessagesNotVisible": "0"}
    (message,) = sqs.receive_message(QueueUrl=url, MessageSystemAttributeNames=["All"])[
        "Messages"]
    assert message["Attributes"]["ApproximateReceiveCount"] == "1"
    # The mapping is still moto's to list, get and delete.
    (listed,) = lam.list_event_source_mappings(
        FunctionName=fn["FunctionArn"])["EventSourceMappings"]
    assert (listed["EventSourceArn"], listed["BatchSize"]) == (arn, 5)
    lam.delete_event_source_mapping(UUID=listed["UUID"])


def test_a_mapping_needs_the_visibility_timeout_to_cover_the_function(
        sandbox: Sandbox) -> None:
    """"Using Lambda with Amazon SQS": the queue's visibility timeout must be at least the
    function's timeout; CreateEventSourceMapping otherwise answers
    InvalidParameterValueException "Queue visibility timeout: 2 seconds is less than
    Function timeout: 5 seconds" (the error quoted in hashicorp/terraform-provider-aws
    issue 18099). Equal is accepted."""
    iam, lam, sqs = (aws.client(s, sandbox.moto.url) for s in ("iam", "lambda", "sqs"))
    role = iam.create_role(RoleName="slow-role", AssumeRolePolicyDocument="{}")["Role"]["Arn"]
    fn = lam.create_function(FunctionName="slow", Runtime="python3.11", Role=role,
                             Handler="handler.handle", Code={"ZipFile": _package()},
                             Timeout=5)["FunctionArn"]
    arns = {}
    for visibility in (2, 5):
        url = sqs.create_queue(QueueName=f"vis-{visibility}", Attributes={
            "VisibilityTimeout": str(visibility)})["QueueUrl"]
        arns[visibility] = sqs.get_queue_attributes(
            QueueUrl=url, AttributeNames=["QueueArn"])["Attributes"]["QueueArn"]
    with pytest.raises(lam.exceptions.InvalidParameterValueException,
                       match="Queue visibility timeout: 2 seconds is less than Function "
                             "timeout: 5 seconds"):
        lam.create_event_source_mapping(EventSourceArn=arns[2], FunctionName=fn)
    lam.create_event_source_mapping(EventSourceArn=arns[5], FunctionName=fn)
