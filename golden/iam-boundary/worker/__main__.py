"""Entry point: `python -m worker`, run with the solution directory as cwd.

Configured by the environment: QUEUE_URL, RESULTS_BUCKET, AWS_REGION, WORK_SECONDS, and the
worker role's session in the standard AWS_* variables (AWS_ENDPOINT_URL included).

Exits 0 on SIGTERM or SIGINT after finishing or handing back the current job.
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

log = logging.getLogger("worker")

CONFIG = Config(
    connect_timeout=2,
    read_timeout=RECEIVE_WAIT_SECONDS + 3,
    # The worker's own loop retries, with backoff: a retried receive could take a second
    # message the worker never sees.
    retries={"mode": "standard", "total_max_attempts": 1},
    s3={"addressing_style": "path"},
)


def main() -> int:
    logging.basicConfig(stream=sys.stderr, level=logging.INFO,
                        format="%(asctime)s %(levelname)s worker[%(process)d] %(message)s")
    try:
        queue_url = os.environ["QUEUE_URL"]
        bucket = os.environ["RESULTS_BUCKET"]
        region = os.environ["AWS_REGION"]
        work_seconds = float(os.environ.get("WORK_SECONDS", "0"))
    except (KeyError, ValueError) as exc:
        log.error("bad environment: %s", exc)
        return 2

    stop = threading.Event()

    def on_signal(signum: int, frame: FrameType | None) -> None:
        log.info("%s: stopping after the current job", signal.Signals(signum).name)
        stop.set()

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)

    endpoint = os.environ.get("AWS_ENDPOINT_URL") or None
    sqs = boto3.client("sqs", region_name=region, endpoint_url=endpoint, config=CONFIG)
    s3 = boto3.client("s3", region_name=region, endpoint_url=endpoint, config=CONFIG)
    log.info("consuming %s into s3://%s", queue_url, bucket)
    Consumer(sqs, s3, queue_url, bucket, work_seconds, stop).run()
    log.info("stopped")
    return 0


if __name__ == "__main__":
    sys.exit(main())
