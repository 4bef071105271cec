"""The emulator as the kit's Lambda service relies on it (kit/sandbox/fidelity/lambda_esm.py,
lambda_roles.py and what moto's Lambda API stores), against a real moto server."""

from __future__ import annotations

import io
import json
import zipfile
from collections.abc import Iterator

import pytest

from kit import aws
from kit.run.sandbox import Sandbox


@pytest.fixture(scope="module")
def sandbox() -> Iterator[Sandbox]:
    with Sandbox(postgres=False) as sb:
        yield sb


def _trust(principal: dict[str, str]) -> str:
    return json.dumps({"Version": "2012-10-17", "Statement": [{
        "Effect": "Allow", "Principal": principal, "Action": "sts:AssumeRole"}]})


LAMBDA_TRUST = _trust({"Service": "lambda.amazonaws.com"})


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
    role = iam.create_role(RoleName="fn-role", AssumeRolePolicyDocument=LAMBDA_TRUST)[
        "Role"]["Arn"]
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
    role = iam.create_role(RoleName="slow-role", AssumeRolePolicyDocument=LAMBDA_TRUST)[
        "Role"]["Arn"]
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


def test_a_function_needs_an_execution_role_lambda_may_assume(sandbox: Sandbox) -> None:
    """"Defining Lambda function permissions with an execution role" (Lambda developer
    guide): the role's trust policy lets `lambda.amazonaws.com` assume it; CreateFunction
    and UpdateFunctionConfiguration answer InvalidParameterValueException for a role Lambda
    is unable to assume (Lambda API reference, CreateFunction, Errors). A role trusting
    only an account's principal, or another service, is refused; moto made the function."""
    iam, lam = (aws.client(s, sandbox.moto.url) for s in ("iam", "lambda"))
    trusted = iam.create_role(RoleName="runs-fn", AssumeRolePolicyDocument=LAMBDA_TRUST)[
        "Role"]["Arn"]
    for name, principal in (("harness-only", {"AWS": aws.HARNESS_ARN}),
                            ("ecs-only", {"Service": "ecs-tasks.amazonaws.com"})):
        role = iam.create_role(RoleName=name, AssumeRolePolicyDocument=_trust(principal))[
            "Role"]["Arn"]
        with pytest.raises(lam.exceptions.InvalidParameterValueException,
                           match="Lambda cannot assume the execution role"):
            lam.create_function(FunctionName=f"fn-{name}", Runtime="python3.11", Role=role,
                                Handler="handler.handle", Code={"ZipFile": _package()})
        with pytest.raises(lam.exceptions.ResourceNotFoundException):
            lam.get_function(FunctionName=f"fn-{name}")
    lam.create_function(FunctionName="fn-trusted", Runtime="python3.11", Role=trusted,
                        Handler="handler.handle", Code={"ZipFile": _package()})
    with pytest.raises(lam.exceptions.InvalidParameterValueException,
                       match="Lambda cannot assume the execution role"):
        lam.update_function_configuration(FunctionName="fn-trusted", Role=role)
    assert lam.get_function(FunctionName="fn-trusted")["Configuration"]["Role"] == trusted
