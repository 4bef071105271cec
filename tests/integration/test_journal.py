"""The moto server's journal of its answers (kit/sandbox/journal.py): the evidence blame is
decided from, written by the emulator's process alone; and its replay of SDK retries
(kit/sandbox/fidelity/retries.py)."""

from __future__ import annotations

import json
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import botocore.exceptions
import pytest

from kit import aws
from kit.deploy.evidence import Witness
from kit.sandbox.moto import MotoServer


@pytest.fixture(scope="module")
def moto(tmp_path_factory: pytest.TempPathFactory) -> Iterator[MotoServer]:
    server = MotoServer(tmp_path_factory.mktemp("moto"))
    try:
        server.wait_ready()
        yield server
    finally:
        server.stop()


def test_every_answer_is_journaled_with_its_action_status_and_code(moto: MotoServer) -> None:
    witness = Witness([moto.journal], [moto.answering])
    marks = witness.mark()
    sqs = aws.client("sqs", moto.url)
    sqs.create_queue(QueueName="journaled")
    with pytest.raises(botocore.exceptions.ClientError):
        sqs.get_queue_url(QueueName="absent")
    logs = aws.client("logs", moto.url)
    logs.create_log_group(logGroupName="protected")
    with pytest.raises(botocore.exceptions.ClientError):  # moto lacks it: 501
        logs.put_data_protection_policy(logGroupIdentifier="protected", policyDocument="{}")
    seen = witness.evidence(marks)
    lines = {f"{a.service} {a.action} {a.status} {a.code}".rstrip()
             for a in seen.deploy_answers}
    assert {"sqs CreateQueue 200", "logs CreateLogGroup 200",
            "logs PutDataProtectionPolicy 501 NotImplemented"} <= lines, lines
    assert any(line.startswith("sqs GetQueueUrl 400 ") for line in lines), lines
    assert seen.outage is None and not seen.slow()
    assert seen.answered(r"^logs PutDataProtectionPolicy\b.* 501 NotImplemented$")


def test_only_the_emulators_process_can_write_it(moto: MotoServer) -> None:
    # 0600, the kit's user: a solution's processes run as other users (kit/sandbox/identity)
    # and none of their sandboxes shows the sandbox's directory.
    mode = stat.S_IMODE(Path(moto.journal.path).stat().st_mode)
    assert mode == 0o600


def test_a_stopped_emulator_is_seen_by_the_kits_probe(tmp_path: Path) -> None:
    server = MotoServer(tmp_path)
    server.wait_ready()
    assert server.answering() is None
    server.stop()
    assert "exited" in (server.answering() or "")


def _retried(client: Any, invocation: str, attempt: int) -> None:
    """Send the client's next requests as attempt `attempt` of one SDK invocation."""
    def mark(request: Any, **_: Any) -> None:  # after botocore sets its own
        request.headers["amz-sdk-invocation-id"] = invocation
        request.headers["amz-sdk-request"] = f"attempt={attempt}; max=25"
    client.meta.events.register_first("before-send.*.*", mark)


def test_a_retried_create_the_emulator_already_answered_gets_the_same_answer(
        moto: MotoServer) -> None:
    # AWS SDKs send every attempt of one operation with the same amz-sdk-invocation-id
    # and count it in amz-sdk-request ("Retry behavior", AWS SDKs and Tools reference
    # guide). A retry of a CreateRole whose first answer the SDK missed must not fail
    # with EntityAlreadyExists (a `fail` the solution did not cause).
    trust = json.dumps({"Version": "2012-10-17", "Statement": []})
    first, again = aws.client("iam", moto.url), aws.client("iam", moto.url)
    _retried(first, "inv-1", 1)
    _retried(again, "inv-1", 2)
    made = first.create_role(RoleName="order-worker", AssumeRolePolicyDocument=trust)
    assert again.create_role(RoleName="order-worker", AssumeRolePolicyDocument=trust)[
        "Role"]["Arn"] == made["Role"]["Arn"]
    # Another invocation, or a first attempt, still meets the role: as AWS answers.
    other = aws.client("iam", moto.url)
    _retried(other, "inv-2", 2)
    with pytest.raises(botocore.exceptions.ClientError) as caught:
        other.create_role(RoleName="order-worker", AssumeRolePolicyDocument=trust)
    assert caught.value.response["Error"]["Code"] == "EntityAlreadyExists"


def test_a_workloads_retries_keep_aws_answers(moto: MotoServer) -> None:
    # Only the kit's own key is replayed: a workload's retried send sends twice, as on AWS.
    sqs = aws.client("sqs", moto.url)
    url = sqs.create_queue(QueueName="at-least-once")["QueueUrl"]
    worker = aws.client("sqs", moto.url, aws.Credentials("ASIAWORKER", "secret", "token"))
    _retried(worker, "inv-3", 1)
    first = worker.send_message(QueueUrl=url, MessageBody="x")["MessageId"]
    retry = aws.client("sqs", moto.url, aws.Credentials("ASIAWORKER", "secret", "token"))
    _retried(retry, "inv-3", 2)
    assert retry.send_message(QueueUrl=url, MessageBody="x")["MessageId"] != first
