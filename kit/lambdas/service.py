"""The Lambda service for one function: its SQS event source mapping's pollers.

What it follows (Lambda developer guide):
- "Using Lambda with Amazon SQS": the mapping polls the queue with the function's
  execution role (sqs:ReceiveMessage, DeleteMessage, GetQueueAttributes), gathers up to
  the batch size, waiting at most MaximumBatchingWindowInSeconds, invokes the function
  synchronously with the batch, and deletes the batch when the invocation succeeds; on an
  error or a timeout nothing is deleted: the messages become visible again after the
  queue's visibility timeout, and the queue's redrive policy moves them after
  maxReceiveCount (SQS's own behaviour, here moto's).
- "Implementing partial batch responses": with ReportBatchItemFailures only the reported
  messages stay (kit/lambdas/event.py).
- "Configuring scaling behavior for SQS event source mappings": at most the mapping's
  maximum concurrency invocations at once; a reserved concurrency below what the pollers
  want throttles the excess invocations, whose messages return to the queue after the
  visibility timeout.
The pollers run in the kit (trusted); every execution environment is a sandbox of its own,
reused for the invocations that follow until a timeout, a crash or a kill ends it
(kit/lambdas/invoke.py). A slot's session is named like a worker's (`worker-<slot>#<n>`):
the gateway records its receives and deletes as it does a worker's, so the history and
the checkers are the worker ones, plus one `invocation` op per invocation. A slot whose
invocation timed out or was killed gets a new environment and session (a new name).

Its interface is the Supervisor's, for the faults and the queue workload: holders, kill,
owns, crash_looped, error, stop.
"""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from botocore.exceptions import BotoCoreError, ClientError

from kit import aws
from kit.lambdas import config, event
from kit.lambdas.invoke import Environment, Outcome, lambda_env
from kit.recorder import Recorder
from kit.sandbox.confine import Confinement
from kit.workload.supervisor import WORKER_PREFIX, NoSession

REFRESH_SECONDS = 0.5  # how often the deployed reserved concurrency is read again
RECEIVE_WAIT = 1  # long-poll seconds per receive (short: a stop is seen quickly)
BACKOFF_SECONDS = 0.5  # after a refused receive or a throttle


@dataclass(frozen=True)
class Deployed:
    """The function, its mapping and where its code is inside the sandbox's workspace."""

    function: config.FunctionConfig
    mapping: config.MappingConfig | None  # None: no enabled SQS mapping, nothing polls
    queue_url: str
    code: str  # relative to the workspace


class LambdaService(threading.Thread):
    """Polls the mapping's queue with `pollers(mapping)` slots and invokes the handler."""

    def __init__(self, deployed: Deployed, confinement: Confinement, endpoint_env: dict[str, str],
                 session_for: Callable[[str], aws.Credentials], gateway_url: str, admin: Any,
                 logdir: Path, recorder: Recorder, keys: Callable[[str], str | None]) -> None:
        super().__init__(name="lambda", daemon=True)
        self.deployed, self.confinement, self.endpoint_env = deployed, confinement, endpoint_env
        self.session_for, self.gateway_url, self.admin = session_for, gateway_url, admin
        self.logdir, self.recorder, self.keys = logdir, recorder, keys  # body -> its key
        self.slots = config.pollers(deployed.mapping) if deployed.mapping else 0
        self.limit = self._limit(deployed.function.reserved)
        self.running: dict[str, Environment] = {}  # slot session name -> its environment,
        # while it runs an invocation
        self._killed: set[str] = set()
        self._lock = threading.Lock()
        self.stopping = threading.Event()
        self.crash_looped = False  # a failing handler fails invocations, never the run
        self.refused = False  # an environment got no session (NoSession)
        self.error: Exception | None = None

    def _limit(self, reserved: int | None) -> int:
        return self.slots if reserved is None else min(self.slots, reserved)

    def run(self) -> None:
        if self.deployed.mapping is None:  # a function nothing invokes: it never acts
            self.recorder.record("kit", "worker_start", worker=f"{WORKER_PREFIX}0#0", pid=0)
        threads = [threading.Thread(target=self._guarded, args=(slot,), daemon=True,
                                    name=f"lambda-poller-{slot}") for slot in range(self.slots)]
        for thread in threads:
            thread.start()
        try:
            while not self.stopping.wait(REFRESH_SECONDS):
                reserved = config.reserved_concurrency(self.admin, self.deployed.function.arn)
                with self._lock:
                    self.limit = self._limit(reserved)
        except Exception as exc:  # noqa: BLE001 - reported as a run error
            self.error = exc
        finally:
            self.stopping.set()
            for thread in threads:
                thread.join()

    def _guarded(self, slot: int) -> None:
        try:
            self._poll(slot)
        except Exception as exc:  # noqa: BLE001 - reported as a run error
            self.error = self.error or exc
            self.stopping.set()

    def _poll(self, slot: int) -> None:
        """One poller: a session per environment, batches until the run stops. A session
        the role refuses (its trust policy, a fault) is asked for again after a backoff,
        under the same name: the slot is up, and cannot poll."""
        incarnation = 0
        while not self.stopping.is_set():
            name = f"{WORKER_PREFIX}{slot}#{incarnation}"
            incarnation += 1
            self.recorder.record("kit", "worker_start", worker=name, pid=0)
            creds = None
            while creds is None and not self.stopping.is_set():
                try:
                    creds = self.session_for(name)
                except NoSession:  # the solution's: recorded by session_for, judged there
                    self.refused = True
                    self.stopping.set()
                except ClientError:
                    self.stopping.wait(BACKOFF_SECONDS)
            ended: dict[str, Any] = {"code": 0}
            if creds is not None:
                ended = self._environment(name, aws.client("sqs", self.gateway_url, creds),
                                          creds)
            self.recorder.record("kit", "worker_exit", worker=name, pid=0, **ended)

    def _environment(self, name: str, sqs: Any, creds: aws.Credentials) -> dict[str, Any]:
        """Batches of one execution environment until it ends (a timeout, a kill, a crash,
        the stop): how it ended, as a worker_exit's code or signal."""
        environment = Environment(self.confinement, lambda_env(
            self.deployed.function, self.endpoint_env, _env(creds)),
            self.logdir / f"lambda-{name.split('#')[0]}.log")
        try:
            while not self.stopping.is_set():
                batch = self._gather(sqs)
                if not batch:
                    continue
                outcome, fatal = self._invoke(name, batch, environment)
                self._settle(name, sqs, batch, outcome)
                if fatal:
                    return {"signal": "SIGKILL"}
            return {"code": 0}
        finally:
            environment.close()

    def _gather(self, sqs: Any) -> list[dict[str, Any]]:
        """Up to the batch size, within the batching window (one receive without one)."""
        mapping = self.deployed.mapping
        assert mapping is not None
        deadline = time.monotonic() + mapping.window
        batch: list[dict[str, Any]] = []
        while not self.stopping.is_set() and len(batch) < mapping.batch_size:
            try:
                got = sqs.receive_message(
                    QueueUrl=self.deployed.queue_url, WaitTimeSeconds=RECEIVE_WAIT,
                    MaxNumberOfMessages=min(10, mapping.batch_size - len(batch)),
                    MessageSystemAttributeNames=["All"], MessageAttributeNames=["All"],
                ).get("Messages", [])
            except (ClientError, BotoCoreError):  # denied, or cut: the gateway records it
                self.stopping.wait(BACKOFF_SECONDS)
                break
            batch += got
            if batch and time.monotonic() >= deadline:
                break
        return batch

    def _invoke(self, name: str, batch: list[dict[str, Any]], environment: Environment
                ) -> tuple[Outcome, bool]:
        """Run the handler over the batch (or throttle it): the outcome, and whether the
        environment ended with it (a timeout, a kill, a runtime crash)."""
        function, request_id = self.deployed.function, str(uuid.uuid4())
        ids = [m["MessageId"] for m in batch]
        with self._lock:
            throttled = len(self.running) >= self.limit
            environment.batch = batch
            if not throttled:
                self.running[name] = environment
        value = {"function": function.name, "request_id": request_id,
                 "batch_size": len(batch), "message_ids": ids}
        if throttled:
            self.recorder.record(name, "invocation", type="fail", **value, outcome="throttled",
                                 error="Rate Exceeded (TooManyRequestsException)")
            self.stopping.wait(BACKOFF_SECONDS)
            return Outcome(False, error="throttled"), False
        self.recorder.record(name, "invocation", type="invoke", **value)
        try:
            assert self.deployed.mapping is not None
            outcome = environment.invoke(
                event.event(batch, self.deployed.mapping.queue_arn, aws.REGION),
                self._meta(request_id), function.timeout)
        finally:
            with self._lock:
                self.running.pop(name, None)
                killed = name in self._killed
        if killed:
            outcome = Outcome(False, error="the execution environment was killed",
                              seconds=outcome.seconds)
        return outcome, killed or environment.ended

    def _meta(self, request_id: str) -> dict[str, Any]:
        function = self.deployed.function
        return {"code": self.deployed.code, "request_id": request_id,
                "function_name": function.name, "function_arn": function.arn,
                "memory": function.memory, "timeout_ms": function.timeout * 1000,
                "log_group": f"/aws/lambda/{function.name}"}

    def _settle(self, name: str, sqs: Any, batch: list[dict[str, Any]], outcome: Outcome
                ) -> None:
        """Delete what the outcome lets go and record the invocation's end."""
        if outcome.error == "throttled":
            return
        ids = [m["MessageId"] for m in batch]
        assert self.deployed.mapping is not None
        verdict = event.verdict(ids, outcome.ok, outcome.response,
                                self.deployed.mapping.report_failures, outcome.error)
        deleted = self._delete_batch(sqs, [m for m in batch if m["MessageId"] in verdict.delete])
        self.recorder.record(
            name, "invocation", type="ok" if verdict.outcome != "failed" else "fail",
            function=self.deployed.function.name, batch_size=len(batch),
            outcome=verdict.outcome, reason=verdict.reason, deleted=deleted,
            seconds=outcome.seconds)

    def _delete_batch(self, sqs: Any, messages: list[dict[str, Any]]) -> int:
        """DeleteMessageBatch in tens; how many were deleted (an expired receipt fails)."""
        deleted = 0
        for start in range(0, len(messages), 10):
            entries = [{"Id": str(i), "ReceiptHandle": m["ReceiptHandle"]}
                       for i, m in enumerate(messages[start:start + 10])]
            try:
                reply = sqs.delete_message_batch(QueueUrl=self.deployed.queue_url,
                                                 Entries=entries)
            except (ClientError, BotoCoreError):
                continue  # denied or cut: the messages come back, as on AWS
            deleted += len(reply.get("Successful", []))
        return deleted

    @staticmethod
    def owns(process: str) -> bool:
        """Whether `process` is one of its slots' sessions (named as workers are)."""
        return process.startswith(WORKER_PREFIX)

    def holders(self) -> dict[str, int]:
        """Slot session names whose invocation is mid-batch -> its sandbox's pid: some of
        its batch's messages have taken effect and some not yet, so a kill now (the
        worker_crash fault) leaves a batch Lambda redelivers whole, part of it applied."""
        recorded = {op.value.key for op in self.recorder.snapshot()
                    if op.kind == "recorded" and op.ok}
        with self._lock:
            running = [(name, inv) for name, inv in self.running.items()
                       if inv.proc is not None and inv.proc.poll() is None]
        return {name: inv.proc.pid for name, inv in running  # type: ignore[union-attr]
                if _mid_batch(self.keys, inv.batch, recorded)}

    def kill(self, name: str) -> bool:
        """SIGKILL the invocation `name` runs (worker_crash: killed mid-batch)."""
        with self._lock:
            invocation = self.running.get(name)
            if invocation is None or invocation.proc is None or \
                    invocation.proc.poll() is not None:
                return False
            self._killed.add(name)
            invocation.proc.kill()
        return True

    def stop(self) -> None:
        """Stop polling; running invocations are killed and the pollers joined."""
        self.stopping.set()
        with self._lock:
            for invocation in self.running.values():
                if invocation.proc is not None:
                    invocation.proc.kill()
        if self.is_alive():
            self.join()


def _mid_batch(keys: Callable[[str], str | None], batch: list[dict[str, Any]],
               recorded: set[str]) -> bool:
    """Whether some of the batch's keyed messages have a recorded effect and some not."""
    found = {keys(m.get("Body", "")) for m in batch} - {None}
    return bool(found & recorded) and bool(found - recorded)


def _env(creds: aws.Credentials) -> dict[str, str]:
    """The execution role's credentials, as Lambda puts them in the environment."""
    return {"AWS_ACCESS_KEY_ID": creds.access_key_id,
            "AWS_SECRET_ACCESS_KEY": creds.secret_access_key,
            "AWS_SESSION_TOKEN": creds.token or ""}
