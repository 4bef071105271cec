"""Which queues a topic producer's recovery waits on: those the topic feeds that the
scenario declares (a team's topic also feeds consumers the run does not play, whose queues
nobody drains), or all it feeds when the scenario declares none of them."""

from __future__ import annotations

from kit.run.queue import declared_first

BASE = "http://localhost:4566/123456789012"
FED = [f"{BASE}/fulfilment", f"{BASE}/notifications"]


def test_only_the_declared_queues_the_topic_feeds_are_waited_on() -> None:
    values = {"queue.fulfilment.url": "http://127.0.0.1:9/123456789012/fulfilment",
              "queue.dlq.url": f"{BASE}/fulfilment-dlq", "topic.events.arn": "arn:x"}
    assert declared_first(FED, values) == [f"{BASE}/fulfilment"]


def test_all_it_feeds_when_none_is_declared() -> None:
    assert declared_first(FED, {"queue.dlq.url": f"{BASE}/dlq"}) == FED
    assert declared_first([], {"queue.dlq.url": f"{BASE}/dlq"}) == []
