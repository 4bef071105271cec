"""python -m worker: poll order-fulfilment until SIGTERM (ECS stops tasks with it)."""

from __future__ import annotations

import logging
import os
import signal
import sys
import time
from types import FrameType

import boto3
import psycopg

from worker import store
from worker.events import InvalidEvent, parse

LOG = logging.getLogger("fulfilment_worker")


class Worker:
    """Receives a batch, records each event, deletes each message only after its commit."""

    def __init__(self, queue_url: str, database_url: str) -> None:
        self.queue_url = queue_url
        self.database_url = database_url
        self.sqs = boto3.client("sqs")
        self.conn: psycopg.Connection | None = None
        self.stopping = False

    def stop(self, signum: int, frame: FrameType | None) -> None:
        LOG.info("signal %d: finishing the current batch", signum)
        self.stopping = True

    def db(self) -> psycopg.Connection:
        if self.conn is None or self.conn.closed:
            self.conn = store.connect(self.database_url)
        return self.conn

    def handle(self, message: dict) -> None:
        message_id, receipt = message["MessageId"], message["ReceiptHandle"]
        try:
            event = parse(message["Body"])
        except InvalidEvent as exc:
            LOG.warning("message %s is not a valid order event: %s", message_id, exc)
            # Back on the queue at once: the redrive policy moves it to the DLQ after
            # maxReceiveCount receives, where on-call looks at it.
            self.sqs.change_message_visibility(QueueUrl=self.queue_url, ReceiptHandle=receipt,
                                               VisibilityTimeout=0)
            return
        new = store.record(self.db(), event)
        LOG.info("order %s %s (message %s)", event.order_id,
                 "recorded" if new else "already recorded", message_id)
        self.sqs.delete_message(QueueUrl=self.queue_url, ReceiptHandle=receipt)

    def poll(self) -> None:
        reply = self.sqs.receive_message(QueueUrl=self.queue_url, MaxNumberOfMessages=10,
                                         WaitTimeSeconds=2)
        for message in reply.get("Messages", []):
            try:
                self.handle(message)
            except psycopg.Error:
                # Not deleted: SQS delivers it again after the visibility timeout.
                LOG.exception("message %s not recorded", message["MessageId"])
                self.conn = None

    def run(self) -> None:
        backoff = 0.5
        while not self.stopping:
            try:
                self.poll()
                backoff = 0.5
            except Exception:  # noqa: BLE001 - keep polling through outages
                LOG.exception("poll failed; retrying in %.1f s", backoff)
                time.sleep(backoff)
                backoff = min(backoff * 2, 5.0)


def main() -> int:
    logging.basicConfig(level=os.environ.get("LOG_LEVEL", "INFO"),
                        format="%(asctime)s %(levelname)s %(name)s %(message)s")
    worker = Worker(os.environ["QUEUE_URL"], os.environ["DATABASE_URL"])
    signal.signal(signal.SIGTERM, worker.stop)
    signal.signal(signal.SIGINT, worker.stop)
    LOG.info("polling %s", worker.queue_url)
    worker.run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
