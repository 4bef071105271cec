"""The moto server's journal of its answers (kit/sandbox/journal.py): the evidence blame is
decided from, written by the emulator's process alone."""

from __future__ import annotations

import stat
from collections.abc import Iterator
from pathlib import Path

import botocore.exceptions
import pytest

from kit.deploy.evidence import Witness
from kit.sandbox.moto import MotoServer
from kit.workload import aws


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
