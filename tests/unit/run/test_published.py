"""Recovery of a queue workload whose workers publish events (workload.events): it waits
until every recorded key's message was published to the topic, or until none was for
PUBLISH_QUIET_SECONDS; deliveries of another topic do not count."""

from __future__ import annotations

import threading

import pytest

from kit.recorder import Recorder
from kit.run import queue

TOPIC = "arn:aws:sns:us-east-1:123456789012:order-events"
OTHER = "arn:aws:sns:us-east-1:123456789012:other"


def _deliver(rec: Recorder, key: str, topic: str = TOPIC, outcome: str = "delivered") -> None:
    rec.record("sns", "delivery", message_id=f"m-{key}", topic=topic,
               subscription=f"{topic}:s", endpoint="arn:aws:sqs:us-east-1:123456789012:q",
               outcome=outcome, reason="", queue_message_id=None, key=key)


def test_only_the_topics_deliveries_count_whatever_their_outcome() -> None:
    rec = Recorder()
    _deliver(rec, "a")
    _deliver(rec, "b", outcome="filtered")
    _deliver(rec, "c", topic=OTHER)
    rec.record("kit", "phase", name="recover")
    assert [op.value.key for op in queue.deliveries(rec.snapshot(), TOPIC)] == ["a", "b"]


def test_it_waits_for_every_recorded_keys_message(monkeypatch: pytest.MonkeyPatch) -> None:
    # No quiet window and no deadline in reach: only the last key's delivery ends the wait.
    monkeypatch.setattr(queue, "PUBLISH_QUIET_SECONDS", 600.0)
    rec = Recorder()
    _deliver(rec, "a")
    late = threading.Timer(0.3, lambda: (_deliver(rec, "c", topic=OTHER), _deliver(rec, "b")))
    late.start()
    queue.await_published(rec, TOPIC, {"a", "b"}, timeout=600)
    late.join()
    assert {op.value.key for op in queue.deliveries(rec.snapshot(), TOPIC)} == {"a", "b"}


def test_a_message_never_published_ends_the_wait_once_quiet(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # A solution that lost an event: nothing more is coming, so the wait ends (quiet), not
    # at the deadline of 600 s.
    monkeypatch.setattr(queue, "PUBLISH_QUIET_SECONDS", 0.3)
    rec = Recorder()
    _deliver(rec, "a")
    queue.await_published(rec, TOPIC, {"a", "lost"}, timeout=600)
