"""A delete racing a send, a release or a redrive loses no message and repeats none
(kit/sandbox/fidelity/sqs.py queue_changes_hold_the_lock; issue 45).

moto's delete rebuilds the queue's list of messages from a walk over it. Each case stops
the delete at one point of that walk and runs the other change in a second thread there;
the second thread either finishes or is seen waiting for the queue's lock (the lock below
says so), so no case waits on time.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import boto3
import pytest
from moto import mock_aws
from moto.sqs import models

from kit.sandbox import fidelity

ACCOUNT, REGION = "123456789012", "us-east-1"
GUARD_SECONDS = 10  # a bound on a broken test, never a readiness wait


class _Contended(threading.Condition):
    """The queue's lock, setting `settled` when a thread finds it held by another."""

    def __init__(self, settled: threading.Event) -> None:
        super().__init__(threading.RLock())
        self.settled = settled

    def __enter__(self) -> bool:
        if self._lock.acquire(blocking=False):  # type: ignore[attr-defined]
            return True
        self.settled.set()
        return self._lock.acquire()  # type: ignore[attr-defined]


class _SpiedDeletes(set):
    """A queue's `deleted_messages`: moto updates it in the walk, at the message it deletes."""

    def __init__(self, at: Callable[[], None]) -> None:
        super().__init__()
        self.at = at

    def update(self, *others: Any) -> None:
        self.at()
        super().update(*others)


def _queues() -> tuple[Any, str, Any, Any]:
    """A client, the work queue's URL (redrive after one receive), its model and its DLQ's."""
    sqs = boto3.client("sqs", region_name=REGION)
    dead = sqs.create_queue(QueueName="dead")["QueueUrl"]
    dead_arn = sqs.get_queue_attributes(QueueUrl=dead, AttributeNames=["QueueArn"])[
        "Attributes"]["QueueArn"]
    url = sqs.create_queue(QueueName="work", Attributes={"RedrivePolicy": (
        f'{{"deadLetterTargetArn":"{dead_arn}","maxReceiveCount":"1"}}')})["QueueUrl"]
    queues = models.sqs_backends[ACCOUNT][REGION].queues
    return sqs, url, queues["work"], queues["dead"]


def _release(backend: Any, handles: dict[str, str]) -> None:
    backend.change_message_visibility("work", handles["x"], 0)


def _redrive(backend: Any, handles: dict[str, str]) -> None:
    backend.receive_message("work", 1, 0, 30)  # x, visible again at its last receive: DLQ


def _send(backend: Any, handles: dict[str, str]) -> None:
    backend.send_message("work", "z")


@pytest.mark.parametrize(("moment", "change", "work", "dead"), [
    # The release moves x behind the walk: unlocked, y is skipped and x kept twice.
    ("walk", _release, ["x", "y"], []),
    # The redrive takes x out before the walk's position: y skipped, x in both queues.
    ("walk", _redrive, ["y"], ["x"]),
    # A message sent after the walk, before the rebuilt list replaces the queue's: lost.
    ("replace", _send, ["x", "y", "z"], []),
])
@mock_aws
def test_a_delete_racing_another_change_keeps_every_message_once(
        moment: str, change: Callable[[Any, dict[str, str]], None], work: list[str],
        dead: list[str]) -> None:
    fidelity.apply_all()
    sqs, url, queue, dlq = _queues()
    for body in ("x", "d", "y"):
        sqs.send_message(QueueUrl=url, MessageBody=body)
    got = sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=2, VisibilityTimeout=30)
    handles = {m["Body"]: m["ReceiptHandle"] for m in got["Messages"]}
    assert sorted(handles) == ["d", "x"]
    queue._messages[0].visible_at = 0  # x's visibility timeout ends (the redrive's case)

    settled = threading.Event()
    queue._messages_lock = _Contended(settled)
    backend = models.sqs_backends[ACCOUNT][REGION]
    other = threading.Thread(target=lambda: (change(backend, handles), settled.set()))
    deleting = threading.current_thread()

    def interpose() -> None:
        if threading.current_thread() is deleting and not other.is_alive() \
                and not settled.is_set():
            other.start()
            assert settled.wait(GUARD_SECONDS), "the other change neither ran nor waited"

    if moment == "walk":
        queue.deleted_messages = _SpiedDeletes(interpose)
    else:
        class Replacing(type(queue)):  # type: ignore[misc]
            def __setattr__(self, name: str, value: Any) -> None:
                if name == "_messages":
                    interpose()
                super().__setattr__(name, value)

        queue.__class__ = Replacing
    sqs.delete_message(QueueUrl=url, ReceiptHandle=handles["d"])
    other.join(GUARD_SECONDS)
    assert not other.is_alive() and other.ident is not None

    assert sorted(m.body for m in queue._messages) == work
    assert sorted(m.body for m in dlq._messages) == dead
