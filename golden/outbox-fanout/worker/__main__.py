"""Entry point: `python -m worker`, run with the solution directory as cwd.

Configured by the environment: QUEUE_URL, TOPIC_ARN, DATABASE_URL, AWS_REGION,
WORK_SECONDS, and the worker role's session in the standard AWS_* variables
(AWS_ENDPOINT_URL included).

Exits 0 on SIGTERM or SIGINT after finishing or safely abandoning the current message and
publishing the events already committed (bounded: what is left stays in the outbox).
"""

from __future__ import annotations

import logging
import os
import signal
import sys
import threading
from types import FrameType

import boto3
from botocore.config import Config

from worker.consumer import RECEIVE_WAIT_SECONDS, Consumer
from worker.relay import Relay
from worker.store import Store

log = logging.getLogger("worker")

SQS_CONFIG = Config(
    connect_timeout=2,
    read_timeout=RECEIVE_WAIT_SECONDS + 3,
    # No retries inside botocore: a receive whose answer was lost may still have taken a
    # message, and each such receive counts toward maxReceiveCount. The worker's own loops
    # retry, with backoff.
    retries={"mode": "standard", "total_max_attempts": 1},
)
# A publish that fails is retried by the relay (same event_id), so no retries here either.
SNS_CONFIG = Config(connect_timeout=2, read_timeout=3,
                    retries={"mode": "standard", "total_max_attempts": 1})
# SIGKILL follows SIGTERM after 5 s: the relay's last round must end before.
RELAY_JOIN_SECONDS = 3.5


def main() -> int:
    logging.basicConfig(stream=sys.stderr, level=logging.INFO,
                        format="%(asctime)s %(levelname)s worker[%(process)d] %(message)s")
    try:
        queue_url = os.environ["QUEUE_URL"]
        topic_arn = os.environ["TOPIC_ARN"]
        database_url = os.environ["DATABASE_URL"]
        region = os.environ["AWS_REGION"]
        work_seconds = float(os.environ.get("WORK_SECONDS", "0"))
    except (KeyError, ValueError) as exc:
        log.error("bad environment: %s", exc)
        return 2

    stop = threading.Event()

    def on_signal(signum: int, frame: FrameType | None) -> None:
        log.info("%s: stopping after the current message", signal.Signals(signum).name)
        stop.set()

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)

    # Credentials (the worker role's session) come from the standard AWS_* variables.
    endpoint = os.environ.get("AWS_ENDPOINT_URL") or None
    sqs = boto3.client("sqs", region_name=region, endpoint_url=endpoint, config=SQS_CONFIG)
    sns = boto3.client("sns", region_name=region, endpoint_url=endpoint, config=SNS_CONFIG)
    store, relay_store = Store(database_url), Store(database_url)
    relay = Relay(sns, topic_arn, relay_store, stop)
    relay.start()
    log.info("consuming %s, publishing to %s", queue_url, topic_arn)
    try:
        Consumer(sqs, queue_url, store, work_seconds, stop).run()
    finally:
        stop.set()
        store.close()
        relay.join(RELAY_JOIN_SECONDS)
        relay_store.close()
    log.info("stopped")
    return 0


if __name__ == "__main__":
    sys.exit(main())
