"""The worker process: one receiver, one heartbeat, up to CAPACITY job threads.

Holding model
-------------
A message is *held* from the receive that returned it until we delete it,
hand it back (visibility 0) or give up on it. While held it carries a local
lease: the monotonic time at which SQS may make it visible again, computed
conservatively from when the receive / last successful visibility extension
was *sent*. The heartbeat thread renews the lease every HEARTBEAT_INTERVAL.

Nothing that completes a job (storing its result, deleting its message) is
started unless at least LEASE_SAFETY seconds of lease remain. If the lease
runs low - e.g. SQS refuses every call for longer than the failure model
allows - the job is abandoned without further calls: SQS will redeliver it
and whoever gets it next finds the stored result (or renders it). So a
message is never completed by a worker that may no longer be its only
holder, and no job is ever dropped.

Idempotency
-----------
Result key and body are functions of the job alone. Before rendering, a HEAD
tells whether the job is already done (duplicate submission or redelivery).
The write uses If-None-Match: * so concurrent duplicates store it once; if
the endpoint does not support conditional writes we fall back to a plain
(idempotent) overwrite. Messages of the same job_id are serialised within a
process.
"""

import contextlib
import logging
import os
import random
import signal
import sys
import threading
import time

from . import aws, jobs, settings

log = logging.getLogger("worker")


class Backoff:
    """Equal-jitter exponential back-off that wakes up early on stop."""

    def __init__(self, stop: threading.Event):
        self._stop = stop
        self._failures = 0

    def reset(self) -> None:
        self._failures = 0

    def wait(self) -> bool:
        delay = min(settings.BACKOFF_CAP, settings.BACKOFF_BASE * (2 ** min(self._failures, 16)))
        self._failures += 1
        return self._stop.wait(delay / 2 + random.random() * delay / 2)


class Held:
    """A message this process received and has not let go of yet."""

    __slots__ = ("message_id", "receipt", "body", "lease_until", "stored", "finished")

    def __init__(self, message: dict, lease_until: float):
        self.message_id = message.get("MessageId", "?")
        self.receipt = message["ReceiptHandle"]
        self.body = message.get("Body", "")
        self.lease_until = lease_until
        self.stored = False  # its job's result is known to be in the bucket
        self.finished = False  # deleted, handed back or given up: hands off

    def lease_left(self) -> float:
        return self.lease_until - time.monotonic()

    def holds(self, margin: float) -> bool:
        return not self.finished and self.lease_left() > margin


class Registry:
    def __init__(self):
        self._lock = threading.Lock()
        self._items: dict[int, Held] = {}

    def add(self, held: Held) -> None:
        with self._lock:
            self._items[id(held)] = held

    def discard(self, held: Held) -> None:
        with self._lock:
            self._items.pop(id(held), None)

    def snapshot(self) -> list[Held]:
        with self._lock:
            return list(self._items.values())

    def __len__(self) -> int:
        with self._lock:
            return len(self._items)


class JobLocks:
    """Serialises messages carrying the same job within this process."""

    def __init__(self):
        self._lock = threading.Lock()
        self._locks: dict[str, list] = {}

    @contextlib.contextmanager
    def hold(self, job_id: str, abort):
        with self._lock:
            entry = self._locks.setdefault(job_id, [threading.Lock(), 0])
            entry[1] += 1
        acquired = False
        try:
            while not acquired and not abort():
                acquired = entry[0].acquire(timeout=0.2)
            yield acquired
        finally:
            if acquired:
                entry[0].release()
            with self._lock:
                entry[1] -= 1
                if entry[1] == 0:
                    self._locks.pop(job_id, None)


class Worker:
    def __init__(self, env: settings.Env):
        self.env = env
        self.stop = threading.Event()
        self.registry = Registry()
        self.job_locks = JobLocks()
        self.clients: aws.Clients | None = None
        self._signalled = False
        self._stop_at = 0.0
        self._conditional_put = True
        self._receiver: threading.Thread | None = None
        self._heartbeat: threading.Thread | None = None

    # ------------------------------------------------------------ lifecycle

    def on_signal(self, signum, frame) -> None:
        # Async-signal context: only plain assignments (no locks, no logging).
        if not self._signalled:
            self._stop_at = time.monotonic()
            self._signalled = True

    def run(self) -> None:
        self._connect()
        while not self._signalled:
            try:
                self._supervise()
            except Exception:
                log.exception("supervisor error")
            time.sleep(0.1)
        self.stop.set()
        self._shutdown()

    def _connect(self) -> None:
        failures = 0
        while not self._signalled:
            try:
                self.clients = aws.Clients(self.env)
                return
            except Exception:
                log.exception("cannot create AWS clients; retrying")
                failures += 1
                time.sleep(min(settings.BACKOFF_CAP, settings.BACKOFF_BASE * 2 ** min(failures, 8)))

    def _supervise(self) -> None:
        if self.clients is None:
            return
        if self._receiver is None or not self._receiver.is_alive():
            if self._receiver is not None:
                log.error("receiver thread died; restarting it")
            self._receiver = threading.Thread(target=self._receive_loop, name="receiver", daemon=True)
            self._receiver.start()
        if self._heartbeat is None or not self._heartbeat.is_alive():
            if self._heartbeat is not None:
                log.error("heartbeat thread died; restarting it")
            self._heartbeat = threading.Thread(target=self._heartbeat_loop, name="heartbeat", daemon=True)
            self._heartbeat.start()

    def _shutdown(self) -> None:
        start = self._stop_at or time.monotonic()
        hard = start + settings.SHUTDOWN_HARD_LIMIT
        watchdog = threading.Timer(max(0.0, hard - time.monotonic()), os._exit, args=(0,))
        watchdog.daemon = True
        watchdog.start()
        log.info("SIGTERM: stopping")

        if self._receiver is not None:
            self._receiver.join(max(0.0, start + settings.SHUTDOWN_RECEIVER_WAIT - time.monotonic()))

        pending = [h for h in self.registry.snapshot() if h.holds(0.5)]
        settlers = []
        for held in pending:
            t = threading.Thread(target=self._settle, args=(held,), daemon=True)
            t.start()
            settlers.append(t)
        for t in settlers:
            t.join(max(0.0, hard - 0.3 - time.monotonic()))
        log.info("stopped; handed back or completed %d held message(s)", len(pending))
        watchdog.cancel()

    def _settle(self, held: Held) -> None:
        """Let go of a held message at shutdown: delete it if its result is
        stored, otherwise make it visible again at once."""
        sqs = self.clients.sqs_quick
        try:
            if held.stored:
                sqs.delete_message(QueueUrl=self.env.queue_url, ReceiptHandle=held.receipt)
            else:
                sqs.change_message_visibility(
                    QueueUrl=self.env.queue_url, ReceiptHandle=held.receipt, VisibilityTimeout=0
                )
            held.finished = True
        except Exception as exc:
            log.warning("could not let go of message %s at shutdown: %s", held.message_id, aws.error_code(exc))

    # ------------------------------------------------------------ receiving

    def _receive_loop(self) -> None:
        backoff = Backoff(self.stop)
        sqs = self.clients.sqs
        while not self.stop.is_set():
            try:
                free = settings.CAPACITY - len(self.registry)
                if free <= 0:
                    self.stop.wait(0.05)
                    continue
                sent = time.monotonic()
                try:
                    resp = sqs.receive_message(
                        QueueUrl=self.env.queue_url,
                        MaxNumberOfMessages=min(10, free),
                        WaitTimeSeconds=settings.RECEIVE_WAIT,
                        VisibilityTimeout=settings.VISIBILITY_TIMEOUT,
                    )
                except Exception as exc:
                    # Refused (or failed): pace the next receive.
                    log.warning("receive failed (%s); backing off", aws.error_code(exc))
                    backoff.wait()
                    continue
                backoff.reset()
                messages = resp.get("Messages") or []
                for message in messages:
                    if "ReceiptHandle" not in message:
                        continue
                    held = Held(message, sent + settings.VISIBILITY_TIMEOUT)
                    self.registry.add(held)
                    if not self.stop.is_set():
                        self._start_job(held)
                if not messages and time.monotonic() - sent < 0.5:
                    # Endpoint answered an empty long poll at once: don't spin.
                    self.stop.wait(0.2)
            except Exception:
                log.exception("unexpected error in receive loop")
                backoff.wait()

    def _start_job(self, held: Held) -> None:
        try:
            threading.Thread(target=self._run_job, args=(held,), name=f"job-{held.message_id}", daemon=True).start()
        except Exception:
            log.exception("cannot start job thread; handing message back")
            self._hand_back(held)

    # ------------------------------------------------------------ heartbeat

    def _heartbeat_loop(self) -> None:
        sqs = self.clients.sqs
        while not self.stop.wait(settings.HEARTBEAT_INTERVAL):
            try:
                for held in self.registry.snapshot():
                    if self.stop.is_set():
                        return
                    # Never renew a lease that may have lapsed: the message
                    # could be someone else's by now.
                    if not held.holds(1.0):
                        continue
                    sent = time.monotonic()
                    try:
                        sqs.change_message_visibility(
                            QueueUrl=self.env.queue_url,
                            ReceiptHandle=held.receipt,
                            VisibilityTimeout=settings.VISIBILITY_TIMEOUT,
                        )
                    except Exception as exc:
                        if not held.finished:
                            log.warning(
                                "cannot extend message %s (%s); %.0f s of lease left",
                                held.message_id, aws.error_code(exc), held.lease_left(),
                            )
                        continue
                    held.lease_until = max(held.lease_until, sent + settings.VISIBILITY_TIMEOUT)
            except Exception:
                log.exception("unexpected error in heartbeat loop")

    # ------------------------------------------------------------ jobs

    def _run_job(self, held: Held) -> None:
        try:
            self._process(held)
        except Exception:
            log.exception("unexpected error processing message %s; handing it back", held.message_id)
            if not self.stop.is_set():
                self._hand_back(held)
        finally:
            # On shutdown an unfinished message stays registered so that
            # _shutdown can delete or hand it back.
            if held.finished or not self.stop.is_set():
                held.finished = True
                self.registry.discard(held)

    def _process(self, held: Held) -> None:
        try:
            job = jobs.parse(held.body)
        except jobs.NotAJob as exc:
            log.error("message %s is not a job (%s); parking it", held.message_id, exc)
            self._park(held)
            return
        key = jobs.result_key(job)

        def abort() -> bool:
            return self.stop.is_set() or not held.holds(settings.LEASE_SAFETY)

        with self.job_locks.hold(job["job_id"], abort) as acquired:
            if not acquired:
                if not self.stop.is_set():
                    self._abandon(held, "lease ran low while a duplicate was in progress")
                return

            if self._result_exists(key) is not True:
                if self.stop.wait(self.env.work_seconds):
                    return  # shutdown hands it back
                body = jobs.render(job)
                if not self._under_lease(held, "store result", lambda: self._store(key, body)):
                    return
            held.stored = True
            self._delete(held, key)

    def _result_exists(self, key: str) -> bool | None:
        """True/False if known; None if the check itself failed (then we
        render anyway - storing is idempotent)."""
        try:
            self.clients.s3.head_object(Bucket=self.env.bucket, Key=key)
            return True
        except Exception as exc:
            if aws.is_not_found(exc):
                return False
            log.warning("cannot check for %s (%s); rendering", key, aws.error_code(exc))
            return None

    def _store(self, key: str, body: bytes) -> None:
        s3 = self.clients.s3
        args = {"Bucket": self.env.bucket, "Key": key, "Body": body, "ContentType": "application/json"}
        if self._conditional_put:
            try:
                s3.put_object(IfNoneMatch="*", **args)
                return
            except Exception as exc:
                status, code = aws.http_status(exc), aws.error_code(exc)
                if status == 412 or code == "PreconditionFailed":
                    return  # already stored (a duplicate, or our own earlier try)
                if status not in (400, 501) or code in aws.CREDENTIAL_ERRORS:
                    raise
                # The endpoint may not support conditional writes; try plain.
                s3.put_object(**args)
                log.info("conditional writes rejected (%s); using plain writes", code)
                self._conditional_put = False
                return
        s3.put_object(**args)

    def _under_lease(self, held: Held, what: str, call) -> bool:
        backoff = Backoff(self.stop)
        while True:
            if self.stop.is_set():
                return False
            if not held.holds(settings.LEASE_SAFETY):
                self._abandon(held, f"lease too short to {what}")
                return False
            try:
                call()
                return True
            except Exception as exc:
                log.warning("%s for message %s failed (%s); retrying", what, held.message_id, aws.error_code(exc))
                backoff.wait()

    def _delete(self, held: Held, key: str) -> None:
        backoff = Backoff(self.stop)
        while True:
            if self.stop.is_set():
                return  # stored=True: shutdown deletes it
            if not held.holds(settings.LEASE_SAFETY):
                self._abandon(held, "lease too short to delete (result is stored)")
                return
            try:
                self.clients.sqs.delete_message(QueueUrl=self.env.queue_url, ReceiptHandle=held.receipt)
                held.finished = True
                log.info("done %s (message %s)", key, held.message_id)
                return
            except Exception as exc:
                if aws.is_stale_receipt(exc):
                    held.finished = True
                    log.info("done %s (message %s already gone)", key, held.message_id)
                    return
                log.warning("delete of message %s failed (%s); retrying", held.message_id, aws.error_code(exc))
                backoff.wait()

    def _abandon(self, held: Held, why: str) -> None:
        # No calls: the message may already be someone else's.
        held.finished = True
        log.warning("giving up message %s: %s; SQS will redeliver it", held.message_id, why)

    def _hand_back(self, held: Held) -> None:
        if held.holds(1.0):
            try:
                self.clients.sqs.change_message_visibility(
                    QueueUrl=self.env.queue_url, ReceiptHandle=held.receipt, VisibilityTimeout=0
                )
            except Exception as exc:
                log.warning("cannot hand back message %s (%s)", held.message_id, aws.error_code(exc))
        held.finished = True

    def _park(self, held: Held) -> None:
        if held.holds(1.0):
            try:
                self.clients.sqs.change_message_visibility(
                    QueueUrl=self.env.queue_url, ReceiptHandle=held.receipt, VisibilityTimeout=settings.PARK_SECONDS
                )
            except Exception as exc:
                log.warning("cannot park message %s (%s)", held.message_id, aws.error_code(exc))
        held.finished = True


def main() -> int:
    logging.basicConfig(
        level=logging.INFO,
        stream=sys.stderr,
        format="%(asctime)s pid=%(process)d %(threadName)s %(levelname)s %(message)s",
    )
    logging.getLogger("botocore").setLevel(logging.WARNING)
    logging.getLogger("urllib3").setLevel(logging.ERROR)

    worker = Worker(settings.load())
    signal.signal(signal.SIGTERM, worker.on_signal)
    signal.signal(signal.SIGINT, worker.on_signal)
    log.info(
        "worker starting: queue=%s bucket=%s work_seconds=%s",
        worker.env.queue_url, worker.env.bucket, worker.env.work_seconds,
    )
    try:
        worker.run()
    except BaseException:  # never let a bug turn into a silent early exit path
        log.exception("worker crashed during shutdown")
    logging.shutdown()
    sys.stderr.flush()
    os._exit(0)
