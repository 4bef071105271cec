"""A received message, kept invisible to other workers while this worker works on it.

SQS hides a received message for the visibility timeout, then hands it to the next
receiver. `expires` is a lower bound of that moment: it is measured from when the request
that set the timeout was *sent*, on this host's monotonic clock. Before it, no other
worker can have received the message. Commit and delete need SAFETY_SECONDS of it left
(`held`), to cover their own latency; an extension counts only if its answer came back
before it. Once it may have passed, the message may be another worker's: this worker
then never commits, deletes, releases or extends it.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any

from botocore.exceptions import BotoCoreError, ClientError

log = logging.getLogger(__name__)

# Short, so that a killed worker's message is visible again within seconds. The queue's
# own visibility_timeout_seconds is the same value (sqs.tf).
VISIBILITY_SECONDS = 10
# Three heartbeats in a row can fail before less than SAFETY_SECONDS of the lease is left.
HEARTBEAT_SECONDS = 2.0
# Covers the latency of the commit or delete that follows the check.
SAFETY_SECONDS = 3.0
DELETE_RETRY_SECONDS = 0.5

AWS_ERRORS = (BotoCoreError, ClientError)


class Lease:
    """One received message and the time until SQS may give it to someone else."""

    def __init__(self, sqs: Any, queue_url: str, message: dict[str, Any], expires: float):
        self.sqs = sqs
        self.queue_url = queue_url
        self.message_id: str = message["MessageId"]
        self.body: str = message["Body"]
        self.receives = message.get("Attributes", {}).get("ApproximateReceiveCount", "?")
        self._receipt: str = message["ReceiptHandle"]
        self._expires = expires
        self._stop_beating = threading.Event()
        self._beater: threading.Thread | None = None

    def remaining(self) -> float:
        return self._expires - time.monotonic()

    def held(self) -> bool:
        """Whether the message is still surely this worker's, with time to act on it."""
        return self.remaining() > SAFETY_SECONDS

    def start_heartbeat(self) -> None:
        self._beater = threading.Thread(target=self._beat, name=f"heartbeat-{self.message_id}",
                                        daemon=True)
        self._beater.start()

    def stop_heartbeat(self) -> None:
        # Not joined: an extension still in flight is bounded by the client's timeouts and
        # only ever extends a message this worker held.
        self._stop_beating.set()

    def _beat(self) -> None:
        while not self._stop_beating.wait(HEARTBEAT_SECONDS):
            if self.remaining() <= 0:
                log.warning("message %s: lease lapsed, stopping its heartbeat", self.message_id)
                return
            sent = time.monotonic()
            try:
                self._set_visibility(VISIBILITY_SECONDS)
            except AWS_ERRORS as exc:
                log.warning("message %s: heartbeat failed (%.1f s of lease left): %s",
                            self.message_id, self.remaining(), exc)
                continue
            # Only an answer that came back before the lease ran out proves the extension
            # applied to a message that was still ours.
            if time.monotonic() < self._expires:
                self._expires = sent + VISIBILITY_SECONDS
            else:
                log.warning("message %s: heartbeat answered after the lease lapsed",
                            self.message_id)
                return

    def release(self) -> None:
        """Make the message visible again now, so the next receive gets it."""
        self.stop_heartbeat()
        if not self.held():
            return  # it may be another worker's by now: leave it alone
        try:
            self._set_visibility(0)
        except AWS_ERRORS as exc:
            log.warning("message %s: release failed, it reappears when its lease lapses: %s",
                        self.message_id, exc)
        self._expires = 0.0

    def delete(self) -> bool:
        """Delete the message (its effects are committed). False if it stays in the queue.

        A message left in the queue after its commit is harmless: it comes back and is
        recognised as already recorded.
        """
        self.stop_heartbeat()
        while self.held():
            try:
                self.sqs.delete_message(QueueUrl=self.queue_url, ReceiptHandle=self._receipt)
            except AWS_ERRORS as exc:
                log.warning("message %s: delete failed: %s", self.message_id, exc)
                time.sleep(DELETE_RETRY_SECONDS)
                continue
            self._expires = 0.0
            return True
        log.warning("message %s: not deleted (lease lapsed); it will be redelivered and "
                    "found already recorded", self.message_id)
        return False

    def _set_visibility(self, seconds: int) -> None:
        self.sqs.change_message_visibility(QueueUrl=self.queue_url,
                                           ReceiptHandle=self._receipt,
                                           VisibilityTimeout=seconds)
