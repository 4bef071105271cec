"""The receive loop and what happens to each message."""

from __future__ import annotations

import enum
import logging
import random
import threading
import time
from typing import Any

import psycopg

from worker.lease import AWS_ERRORS, VISIBILITY_SECONDS, Lease
from worker.order import Order, parse
from worker.store import LeaseLost, Store

log = logging.getLogger(__name__)

# Long polling, but short, so that a stop request is noticed within seconds.
RECEIVE_WAIT_SECONDS = 2


class Backoff:
    """Exponential delays with jitter, from `first` doubling up to `cap` seconds.

    The cap keeps recovery quick once a dependency is back (at most `cap` seconds to
    notice); the jitter keeps workers from retrying in lockstep.
    """

    def __init__(self, first: float = 0.5, cap: float = 5.0) -> None:
        self.first, self.cap = first, cap
        self._next = first

    def reset(self) -> None:
        self._next = self.first

    def wait(self, stop: threading.Event) -> bool:
        """Sleep the next delay; True if `stop` was set meanwhile."""
        delay = random.uniform(self._next / 2, self._next)
        self._next = min(self.cap, self._next * 2)
        return stop.wait(delay)


class Outcome(enum.Enum):
    RECORDED = "recorded"          # committed: delete the message
    STOPPING = "stopping"          # asked to stop before committing: release the message
    LEASE_LOST = "lease lost"      # may be another worker's now: leave it alone
    UNRECORDABLE = "unrecordable"  # the database refuses the values: treat as poison


class Consumer:
    def __init__(self, sqs: Any, queue_url: str, store: Store, work_seconds: float,
                 stop: threading.Event) -> None:
        self.sqs = sqs
        self.queue_url = queue_url
        self.store = store
        self.work_seconds = work_seconds
        self.stop = stop

    def run(self) -> None:
        """Receive and handle messages, one at a time, until `stop` is set."""
        connecting, receiving = Backoff(), Backoff()
        while not self.stop.is_set():
            # Take no message while the database is down: it could only be abandoned, and
            # every abandoned receive walks a valid order closer to the DLQ.
            if not self.store.connected:
                try:
                    self.store.connect()
                except psycopg.Error as exc:
                    log.warning("database unavailable, not receiving: %s", _one_line(exc))
                    connecting.wait(self.stop)
                    continue
                connecting.reset()
                log.info("database connected")
            sent = time.monotonic()
            try:
                reply = self.sqs.receive_message(
                    QueueUrl=self.queue_url, MaxNumberOfMessages=1,
                    WaitTimeSeconds=RECEIVE_WAIT_SECONDS,
                    VisibilityTimeout=VISIBILITY_SECONDS,
                    MessageSystemAttributeNames=["ApproximateReceiveCount"])
            except AWS_ERRORS as exc:
                log.warning("receive failed: %s", _one_line(exc))
                receiving.wait(self.stop)
                continue
            receiving.reset()
            for message in reply.get("Messages", []):
                self.handle(Lease(self.sqs, self.queue_url, message,
                                  sent + VISIBILITY_SECONDS))

    def handle(self, lease: Lease) -> None:
        log.info("message %s: received (receive %s)", lease.message_id, lease.receives)
        lease.start_heartbeat()
        try:
            order = parse(lease.body)
            if order is None:
                log.warning("message %s: poison, rejecting", lease.message_id)
                self.reject(lease)
                return
            outcome = self.process(order, lease)
            log.info("message %s (order %s): %s", lease.message_id, order.order_id,
                     outcome.value)
            if outcome is Outcome.RECORDED and lease.delete():
                log.info("message %s: deleted", lease.message_id)
            elif outcome is Outcome.STOPPING:
                lease.release()
            elif outcome is Outcome.UNRECORDABLE:
                self.reject(lease)
        finally:
            lease.stop_heartbeat()

    def process(self, order: Order, lease: Lease) -> Outcome:
        """Do the work, then record the order, retrying the database while the lease holds."""
        if self.stop.wait(self.work_seconds):
            return Outcome.STOPPING
        retrying = Backoff()
        while lease.held():
            try:
                inserted = self.store.record(order, lease.held)
            except LeaseLost:
                return Outcome.LEASE_LOST
            except psycopg.DataError as exc:
                log.error("order %s cannot be stored: %s", order.order_id, _one_line(exc))
                return Outcome.UNRECORDABLE
            except psycopg.Error as exc:
                log.warning("order %s: database unavailable, keeping the message and "
                            "retrying: %s", order.order_id, _one_line(exc))
                if retrying.wait(self.stop):
                    return Outcome.STOPPING
                continue
            if not inserted:
                log.info("order %s was already recorded", order.order_id)
            return Outcome.RECORDED
        return Outcome.LEASE_LOST

    def reject(self, lease: Lease) -> None:
        """Poison: release it at once; the queue's redrive policy moves it to the DLQ after
        maxReceiveCount receives, which then take milliseconds instead of timeouts."""
        lease.release()


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split()) or type(exc).__name__
