import json
import logging
import os
import random
import signal
import sys
import threading
import time

import boto3
from botocore.config import Config
from botocore.exceptions import BotoCoreError, ClientError

log = logging.getLogger("worker")

STOP = threading.Event()


def _on_term(signum, frame):
    STOP.set()


def _clients():
    cfg = Config(
        connect_timeout=3,
        read_timeout=10,
        retries={"mode": "standard", "max_attempts": 1},
        s3={"addressing_style": "path"},
    )
    endpoint = os.environ.get("AWS_ENDPOINT_URL") or None
    region = os.environ.get("AWS_REGION", "us-east-1")
    sqs = boto3.client("sqs", region_name=region, endpoint_url=endpoint, config=cfg)
    s3 = boto3.client("s3", region_name=region, endpoint_url=endpoint, config=cfg)
    return sqs, s3


class Backoff:
    def __init__(self, base=0.25, cap=2.0):
        self.base, self.cap, self.n = base, cap, 0

    def reset(self):
        self.n = 0

    def wait(self):
        delay = min(self.cap, self.base * (2 ** self.n))
        self.n += 1
        STOP.wait(delay * (0.5 + random.random() / 2))


def parse_job(body):
    job = json.loads(body)
    if isinstance(job, dict) and "job_id" not in job and isinstance(job.get("detail"), dict):
        job = job["detail"]
    if not isinstance(job, dict):
        raise ValueError("job is not an object")
    if not isinstance(job.get("job_id"), str) or not isinstance(job.get("scene"), str):
        raise ValueError("bad job_id/scene")
    if not isinstance(job.get("frames"), int):
        raise ValueError("bad frames")
    return job


def result_exists(s3, bucket, key):
    try:
        s3.head_object(Bucket=bucket, Key=key)
        return True
    except ClientError as e:
        code = e.response.get("Error", {}).get("Code")
        if code in ("404", "NoSuchKey", "NotFound"):
            return False
        raise


def main():
    logging.basicConfig(level=logging.INFO, stream=sys.stderr,
                        format="%(asctime)s %(process)d %(levelname)s %(message)s")
    signal.signal(signal.SIGTERM, _on_term)
    signal.signal(signal.SIGINT, _on_term)

    queue_url = os.environ["QUEUE_URL"]
    bucket = os.environ["RESULTS_BUCKET"]
    work_seconds = float(os.environ.get("WORK_SECONDS", "1") or 1)
    visibility = int(max(60, work_seconds * 2 + 30))

    sqs, s3 = _clients()
    recv_backoff = Backoff()

    while not STOP.is_set():
        try:
            resp = sqs.receive_message(
                QueueUrl=queue_url,
                MaxNumberOfMessages=1,
                WaitTimeSeconds=2,
                VisibilityTimeout=visibility,
            )
        except (ClientError, BotoCoreError) as e:
            log.warning("receive failed: %s", e)
            recv_backoff.wait()
            continue
        except Exception:
            log.exception("unexpected receive error")
            recv_backoff.wait()
            continue
        recv_backoff.reset()

        for msg in resp.get("Messages", []):
            try:
                handle(sqs, s3, queue_url, bucket, work_seconds, visibility, msg)
            except Exception:
                log.exception("error handling message")
    log.info("stopping")
    sys.exit(0)


def release(sqs, queue_url, receipt):
    try:
        sqs.change_message_visibility(QueueUrl=queue_url, ReceiptHandle=receipt,
                                      VisibilityTimeout=0)
    except Exception as e:
        log.warning("release failed: %s", e)


def handle(sqs, s3, queue_url, bucket, work_seconds, visibility, msg):
    received = time.monotonic()
    deadline = received + visibility - 5
    receipt = msg["ReceiptHandle"]
    try:
        job = parse_job(msg["Body"])
    except Exception as e:
        log.error("unparseable message %s: %s", msg.get("MessageId"), e)
        return  # leave it; it will reappear
    key = f"{job['job_id']}.json"

    done = False
    try:
        done = result_exists(s3, bucket, key)
    except Exception as e:
        log.warning("head failed, rendering anyway: %s", e)

    if not done:
        if STOP.wait(work_seconds):
            release(sqs, queue_url, receipt)
            return
        body = json.dumps({"job_id": job["job_id"], "scene": job["scene"],
                           "frames": job["frames"], "status": "rendered"}).encode()
        b = Backoff()
        while True:
            if STOP.is_set():
                release(sqs, queue_url, receipt)
                return
            if time.monotonic() > deadline:
                log.warning("lost lease on %s before storing", key)
                return
            try:
                s3.put_object(Bucket=bucket, Key=key, Body=body,
                              ContentType="application/json")
                break
            except Exception as e:
                log.warning("put failed: %s", e)
                b.wait()

    b = Backoff()
    while True:
        if time.monotonic() > deadline:
            log.warning("lost lease on %s before delete", key)
            return
        try:
            sqs.delete_message(QueueUrl=queue_url, ReceiptHandle=receipt)
            return
        except ClientError as e:
            if e.response.get("Error", {}).get("Code") in (
                    "ReceiptHandleIsInvalid", "InvalidParameterValue"):
                return
            log.warning("delete failed: %s", e)
        except Exception as e:
            log.warning("delete failed: %s", e)
        if STOP.is_set():
            return
        b.wait()
