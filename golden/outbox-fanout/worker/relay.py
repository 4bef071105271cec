"""The outbox relay: publishes the events of committed orders to the topic, and marks them.

An event is published only after its order's transaction committed, and marked only after
SNS accepted it: a crash or an SNS failure in between leaves it unmarked, and it is
published again, with the same event_id, which the consumers' dedupe drops.
"""

from __future__ import annotations

import logging
import threading
from typing import Any

import psycopg

from worker.consumer import Backoff, _one_line
from worker.lease import AWS_ERRORS
from worker.store import Store

log = logging.getLogger(__name__)

POLL_SECONDS = 0.2


class Relay(threading.Thread):
    """Publishes pending events until `stop`, then once more: what was committed before
    the stop is published before the worker exits, if SNS and the database answer."""

    def __init__(self, sns: Any, topic_arn: str, store: Store, stop: threading.Event):
        super().__init__(name="relay", daemon=True)
        self.sns, self.topic_arn, self.store, self.stop = sns, topic_arn, store, stop

    def publish(self, event_type: str, body: str) -> None:
        # The subscriptions' filter policies route on this attribute.
        self.sns.publish(TopicArn=self.topic_arn, Message=body, MessageAttributes={
            "event_type": {"DataType": "String", "StringValue": event_type}})

    def run(self) -> None:
        # Capped at 1 s: once SNS answers again, the backlog goes out at once.
        retrying = Backoff(first=0.2, cap=1.0)
        while True:
            stopping = self.stop.is_set()
            try:
                published = self.store.publish_next(self.publish)
            except (psycopg.Error, *AWS_ERRORS) as exc:
                log.warning("publishing a pending event failed, retrying: %s",
                            _one_line(exc))
                if stopping:
                    return
                retrying.wait(self.stop)
                continue
            retrying.reset()
            if published:
                continue
            if stopping:
                return
            self.stop.wait(POLL_SECONDS)
