"""The worker loop.

For each message (one at a time):

1. Receive it (lease INITIAL_VISIBILITY), record its receipt handle in the lease registry
   and let the lease keeper extend and renew its lease while we hold it.
2. Poison (see orders.parse_order) is sent, body unchanged, to the dead-letter queue and
   then deleted from the orders queue. It never reaches the database.
3. A valid order: spend WORK_SECONDS on it, then record it with one atomic, idempotent
   statement (db.RECORD_SQL), retrying with paced back-off for as long as the database
   is unavailable; the lease is renewed meanwhile, so no other worker receives it.
4. Delete it from the queue.

A crash anywhere is safe: before step 3 commits, nothing happened; after it, a
re-delivery finds the order recorded and only deletes the message. Duplicate sends are
the same case. Every failing call is retried after a paced, jittered back-off and the
worker never exits on its own. We receive only while the database is reachable, so an
outage does not burn the messages' receive counts (5 receives send a message to the DLQ).

SIGTERM: stop taking work; hand the held message back to SQS with a 2 s visibility (it
reappears only after we have exited) or, if it is already recorded, delete it; exit.
A watchdog thread forces the same within FORCE_EXIT_AFTER seconds whatever the main
thread is blocked on.
"""

import logging
import os
import signal
import sys
import threading
import time

from . import config
from .backoff import Backoff
from .db import Database, Unrecordable
from .leases import Lease, LeaseKeeper, LeaseRegistry
from .orders import parse_order
from .sqs import describe, error_code, handle_gone, make_clients

log = logging.getLogger("worker")

_PASSED_ATTRIBUTE_KEYS = ("DataType", "StringValue", "BinaryValue")


class Worker:
    def __init__(self):
        self.stop = threading.Event()
        self.clients = make_clients()
        self.db = Database(config.DATABASE_URL, self.stop)
        self.registry = LeaseRegistry(config.QUEUE_URL, config.AWS_ENDPOINT_URL)
        self.keeper = LeaseKeeper(self.clients["keeper"], config.QUEUE_URL, self.registry)
        self.aws_backoff = Backoff(config.RETRY_BASE, config.RETRY_CAP)
        self.current = None
        self.exit_lock = threading.Lock()
        self.next_orphan_scan = 0.0
        self.wake_fd = None

    # ------------------------------------------------------------------ signals

    def install_signal_handlers(self):
        # The C-level handler writes the signal number to this pipe immediately, whatever
        # the main thread is doing; the monitor thread reacts. The Python-level handler
        # does nothing, so it can never deadlock on a lock the main thread holds.
        read_fd, write_fd = os.pipe()
        os.set_blocking(write_fd, False)
        self.wake_fd = read_fd
        signal.set_wakeup_fd(write_fd, warn_on_full_buffer=False)
        for signum in (signal.SIGTERM, signal.SIGINT):
            signal.signal(signum, lambda *_: None)
        threading.Thread(target=self._monitor, name="shutdown-monitor", daemon=True).start()

    def _monitor(self):
        wanted = {int(signal.SIGTERM), int(signal.SIGINT)}
        while True:
            try:
                data = os.read(self.wake_fd, 64)
            except InterruptedError:
                continue
            if any(b in wanted for b in data):
                break
        started = time.monotonic()
        log.info("stop requested")
        self.stop.set()
        time.sleep(max(0.0, config.FORCE_EXIT_AFTER - (time.monotonic() - started)))
        log.warning("shutdown is taking too long; forcing it")
        self._exit(forced=True)

    def _exit(self, forced):
        # If the main thread is already settling (bounded by the shutdown client's
        # timeouts), let it finish; otherwise do it here.
        if not self.exit_lock.acquire(timeout=config.EXIT_LOCK_WAIT if forced else -1):
            os._exit(0)
        try:
            lease = self.current
            clean = True
            if lease is not None and not lease.settled:
                clean = self._settle_at_exit(lease)
            self.registry.close(remove=clean)
            if not forced:
                self.db.close()
            log.info("stopped")
        except BaseException:
            pass
        finally:
            try:
                sys.stderr.flush()
            finally:
                os._exit(0)

    def _settle_at_exit(self, lease):
        """Leave the held message so that SQS gives it to another worker: deleted if its
        effects are committed, otherwise visible again 2 s from now (after we are gone)."""
        lease.closed = True
        in_flight_done = lease.io.acquire(timeout=0.2)  # let a renewal in flight land first
        client = self.clients["shutdown"]
        try:
            if lease.effects_done:
                client.delete_message(QueueUrl=config.QUEUE_URL, ReceiptHandle=lease.receipt_handle)
                log.info("deleted message %s on the way out", lease.message_id)
            else:
                client.change_message_visibility(
                    QueueUrl=config.QUEUE_URL,
                    ReceiptHandle=lease.receipt_handle,
                    VisibilityTimeout=config.RELEASE_VISIBILITY,
                )
                log.info("handed message %s back to the queue", lease.message_id)
            lease.settled = True
            return True
        except Exception as exc:
            if handle_gone(exc):
                return True
            log.warning("could not settle message %s at exit (%s); it returns to the queue "
                        "when its lease ends", lease.message_id, describe(exc))
            return False
        finally:
            if in_flight_done:
                lease.io.release()

    # ------------------------------------------------------------------ main loop

    def run(self):
        log.info("worker starting (queue %s, work %.2fs)", config.QUEUE_URL, config.WORK_SECONDS)
        self.keeper.start()
        while not self.stop.is_set():
            try:
                self._iteration()
            except Exception:
                # A bug or an unexpected failure: never exit because of it. The held
                # message (if any) stays ours and is retried on the next iteration.
                log.exception("unexpected error; retrying")
                self.stop.wait(1.0)
        self._exit(forced=False)

    def _iteration(self):
        self._maybe_recover_orphans()
        if self.current is None:
            # Take work only when we can record it.
            if not self.db.ready():
                return
            if self._receive() is None:
                return
        lease = self.current
        self._process(lease)
        if lease.settled:
            self._forget(lease)

    def _receive(self):
        sent_mono, sent_wall = time.monotonic(), time.time()
        try:
            response = self.clients["receive"].receive_message(
                QueueUrl=config.QUEUE_URL,
                MaxNumberOfMessages=1,
                WaitTimeSeconds=config.RECEIVE_WAIT,
                VisibilityTimeout=config.INITIAL_VISIBILITY,
                AttributeNames=["ApproximateReceiveCount"],
                MessageAttributeNames=["All"],
            )
        except Exception as exc:
            log.warning("receive failed: %s", describe(exc))
            self.aws_backoff.sleep(self.stop)
            return None
        self.aws_backoff.reset()
        messages = response.get("Messages") or []
        if not messages:
            return None
        lease = Lease(messages[0], sent_mono, sent_wall)
        self.current = lease  # visible to the shutdown path from now on
        self.registry.hold(lease)
        self.keeper.hold(lease)
        return lease

    def _forget(self, lease):
        lease.closed = True
        self.keeper.drop(lease)
        self.registry.clear(lease)
        if self.current is lease:
            self.current = None

    def _process(self, lease):
        """Returns with the lease settled, or unsettled only when stopping."""
        if not lease.effects_done:
            order, reason = parse_order(lease.message.get("Body"))
            if order is None:
                log.warning("message %s is poison (%s); dead-lettering it", lease.message_id, reason)
                if not self._dead_letter(lease):
                    return  # stopping, or no longer ours
            else:
                if not lease.worked:
                    if self.stop.wait(config.WORK_SECONDS):
                        return  # stopping: handed back at exit
                    lease.worked = True
                outcome = self._record(lease, order)
                if outcome == "unrecordable":
                    if not self._dead_letter(lease):
                        return
                elif outcome != "recorded":
                    return  # stopping, or no longer ours
            lease.effects_done = True
        self._delete(lease)

    def _record(self, lease, order):
        while True:
            if self.stop.is_set():
                return "stopped"
            if lease.lost:
                lease.settled = True  # someone else has it now; a re-delivery is idempotent
                return "lost"
            if not self.db.ready():
                continue
            try:
                inserted = self.db.record(order)
            except Unrecordable as exc:
                log.error("order %r cannot be stored (%s); dead-lettering message %s",
                          order.order_id, exc, lease.message_id)
                return "unrecordable"
            except Exception as exc:
                log.warning("recording order %r failed: %s", order.order_id, exc)
                self.db.backoff.sleep(self.stop)
                continue
            if inserted:
                log.info("recorded order %r (%s, %d cents)", order.order_id, order.customer_id, order.amount_cents)
            else:
                log.info("order %r was already recorded (duplicate)", order.order_id)
            return "recorded"

    def _dead_letter(self, lease):
        """Send the message, unchanged, to the DLQ. True once sent."""
        request = {"QueueUrl": config.DLQ_URL, "MessageBody": lease.message.get("Body", "")}
        attributes = {
            name: {k: v for k, v in value.items() if k in _PASSED_ATTRIBUTE_KEYS}
            for name, value in (lease.message.get("MessageAttributes") or {}).items()
        }
        if attributes:
            request["MessageAttributes"] = attributes
        backoff = Backoff(config.RETRY_BASE, config.RETRY_CAP)
        while True:
            if self.stop.is_set():
                return False
            if lease.lost:
                lease.settled = True
                return False
            try:
                self.clients["main"].send_message(**request)
                log.info("message %s sent to the dead-letter queue", lease.message_id)
                return True
            except Exception as exc:
                log.warning("sending message %s to the DLQ failed: %s", lease.message_id, describe(exc))
                if "MessageAttributes" in request and error_code(exc).startswith("InvalidParameter"):
                    request.pop("MessageAttributes")  # keep the body; attributes are optional
                    continue
                backoff.sleep(self.stop)

    def _delete(self, lease):
        backoff = Backoff(config.RETRY_BASE, config.RETRY_CAP)
        while True:
            try:
                self.clients["main"].delete_message(
                    QueueUrl=config.QUEUE_URL, ReceiptHandle=lease.receipt_handle)
                lease.settled = True
                return
            except Exception as exc:
                if handle_gone(exc):
                    lease.settled = True
                    return
                log.warning("deleting message %s failed: %s", lease.message_id, describe(exc))
                if backoff.sleep(self.stop):
                    return  # stopping: settled at exit

    # ------------------------------------------------------------------ dead workers

    def _maybe_recover_orphans(self):
        now = time.monotonic()
        if now < self.next_orphan_scan:
            return
        self.next_orphan_scan = now + config.ORPHAN_SCAN_INTERVAL
        self.registry.recover_orphans(self._release_orphan)

    def _release_orphan(self, receipt_handle, message_id):
        try:
            self.clients["main"].change_message_visibility(
                QueueUrl=config.QUEUE_URL, ReceiptHandle=receipt_handle, VisibilityTimeout=0)
            log.info("handed back message %s left behind by a dead worker", message_id)
            return True
        except Exception as exc:
            if handle_gone(exc):
                return True
            log.warning("could not hand back message %s of a dead worker: %s", message_id, describe(exc))
            return False


def main():
    logging.basicConfig(
        level=logging.INFO,
        stream=sys.stderr,
        format="%(asctime)s pid=%(process)d %(levelname)s %(name)s: %(message)s",
    )
    logging.getLogger("botocore").setLevel(logging.WARNING)
    worker = Worker()
    worker.install_signal_handlers()
    worker.run()
