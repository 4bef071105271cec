"""The gateway in front of a real moto server: attribution, recording, admin API, faults.

These tests register keys for attribution only (no secret); IAM enforcement is tested in
test_gateway_iam.py.
"""

from __future__ import annotations

import json

import pytest
import requests

from kit import aws
from kit.gateway.server import Gateway
from kit.recorder import Recorder
from kit.run.sandbox import Sandbox


@pytest.fixture(scope="module")
def moto_url():  # noqa: ANN201
    with Sandbox(postgres=False) as sb:
        yield sb.moto.url


def _ops(recorder: Recorder, kind: str) -> list[dict]:
    return [op.model_dump(exclude_unset=True) for op in recorder.snapshot() if op.kind == kind]


def test_calls_are_recorded_per_worker_session(moto_url: str) -> None:
    recorder = Recorder()
    key_of = json.loads  # a scenario's describe() decides the key; here the body is one
    with Gateway(moto_url, recorder, key_of=lambda body: key_of(body)["order_id"]) as gw:
        admin = aws.client("sqs", moto_url)
        url = admin.create_queue(QueueName="g1")["QueueUrl"]
        admin.send_message(QueueUrl=url, MessageBody='{"order_id": "o1"}')
        gw.register("AKIDWORKERA", "worker-0#0")
        worker = aws.client("sqs", gw.url, aws.Credentials("AKIDWORKERA", "s"))
        msg = worker.receive_message(QueueUrl=url)["Messages"][0]
        worker.delete_message(QueueUrl=url, ReceiptHandle=msg["ReceiptHandle"])
    receive, = _ops(recorder, "receive")
    assert receive["process"] == "worker-0#0"
    assert receive["value"] == {"message_id": msg["MessageId"], "key": "o1",
                                "receive_count": 1}
    delete, = _ops(recorder, "delete")
    assert delete["value"]["message_id"] == msg["MessageId"]


def test_admin_api_is_refused_through_the_gateway(moto_url: str) -> None:
    with Gateway(moto_url, Recorder()) as gw:
        assert requests.post(f"{gw.url}/moto-api/reset", timeout=5).status_code == 403
        assert requests.get(f"{gw.url}/moto-api/data.json", timeout=5).status_code == 403


def test_lost_delete_is_acknowledged_but_the_message_comes_back(moto_url: str) -> None:
    recorder = Recorder()
    with Gateway(moto_url, recorder) as gw:
        admin = aws.client("sqs", moto_url)
        url = admin.create_queue(QueueName="g2", Attributes={"VisibilityTimeout": "1"})["QueueUrl"]
        admin.send_message(QueueUrl=url, MessageBody="x")
        gw.register("AKIDWORKERB", "worker-0#0")
        worker = aws.client("sqs", gw.url, aws.Credentials("AKIDWORKERB", "s"))
        gw.lose_deletes(1)
        msg = worker.receive_message(QueueUrl=url)["Messages"][0]
        worker.delete_message(QueueUrl=url, ReceiptHandle=msg["ReceiptHandle"])
        again = worker.receive_message(QueueUrl=url, WaitTimeSeconds=3)["Messages"][0]
        assert again["MessageId"] == msg["MessageId"]
    assert [op["value"]["effect"] for op in _ops(recorder, "fault_effect")] == ["delete lost"]
