"""The receive loop and what happens to each job.

A job is deleted only once its result is stored. Whatever AWS refuses (an access denied by
a changed policy, a key the worker may not use for a while, a network error) is retried: a
refused receive after a backoff, a refused result by handing the job back to the queue
after RETRY_SECONDS, a refused delete by leaving the job to come back (its result is then
written again, to the same key: the same object).
"""

from __future__ import annotations

import logging
import random
import threading
from typing import Any

from botocore.exceptions import BotoCoreError, ClientError

from worker.job import Job, parse

log = logging.getLogger(__name__)

AWS_ERRORS = (ClientError, BotoCoreError)
RECEIVE_WAIT_SECONDS = 2  # long polling, short enough to notice a stop request
VISIBILITY_SECONDS = 10
RETRY_SECONDS = 2  # a job whose result could not be stored comes back this soon


class Backoff:
    """Exponential delays with jitter, from `first` doubling up to `cap` seconds."""

    def __init__(self, first: float = 0.2, cap: float = 2.0) -> None:
        self.first, self.cap, self._next = first, cap, first

    def reset(self) -> None:
        self._next = self.first

    def wait(self, stop: threading.Event) -> bool:
        """Sleep the next delay; True if `stop` was set meanwhile."""
        delay = random.uniform(self._next / 2, self._next)
        self._next = min(self.cap, self._next * 2)
        return stop.wait(delay)


class Consumer:
    def __init__(self, sqs: Any, s3: Any, queue_url: str, bucket: str, work_seconds: float,
                 stop: threading.Event) -> None:
        self.sqs, self.s3 = sqs, s3
        self.queue_url, self.bucket = queue_url, bucket
        self.work_seconds, self.stop = work_seconds, stop

    def run(self) -> None:
        """Receive and handle jobs, one at a time, until `stop` is set."""
        receiving = Backoff()
        while not self.stop.is_set():
            try:
                reply = self.sqs.receive_message(
                    QueueUrl=self.queue_url, MaxNumberOfMessages=1,
                    WaitTimeSeconds=RECEIVE_WAIT_SECONDS, VisibilityTimeout=VISIBILITY_SECONDS)
            except AWS_ERRORS as exc:
                log.warning("receive failed: %s", _one_line(exc))
                receiving.wait(self.stop)
                continue
            receiving.reset()
            for message in reply.get("Messages", []):
                self.handle(message)

    def handle(self, message: dict[str, Any]) -> None:
        job = parse(message["Body"])
        receipt = message["ReceiptHandle"]
        if job is None:
            log.error("message %s is not a job: leaving it", message["MessageId"])
            return
        if self.stop.wait(self.work_seconds):  # rendering; a stop hands the job back
            self.hand_back(job, receipt, 0)
            return
        if not self.store(job):
            self.hand_back(job, receipt, RETRY_SECONDS)
            return
        try:
            self.sqs.delete_message(QueueUrl=self.queue_url, ReceiptHandle=receipt)
        except AWS_ERRORS as exc:
            # The job comes back and is rendered again: its result overwrites itself.
            log.warning("job %s: stored, delete failed: %s", job.job_id, _one_line(exc))
            return
        log.info("job %s: done", job.job_id)

    def store(self, job: Job) -> bool:
        """Write the job's result; False when S3 (or IAM, or KMS) refuses it."""
        try:
            self.s3.put_object(Bucket=self.bucket, Key=job.result_key, Body=job.result(),
                               ContentType="application/json")
        except AWS_ERRORS as exc:
            log.warning("job %s: result not stored: %s", job.job_id, _one_line(exc))
            return False
        return True

    def hand_back(self, job: Job, receipt: str, seconds: int) -> None:
        """Make the job visible again after `seconds` (if refused, it comes back anyway
        when its visibility timeout ends)."""
        try:
            self.sqs.change_message_visibility(QueueUrl=self.queue_url, ReceiptHandle=receipt,
                                               VisibilityTimeout=seconds)
        except AWS_ERRORS as exc:
            log.warning("job %s: not handed back: %s", job.job_id, _one_line(exc))


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split()) or type(exc).__name__
