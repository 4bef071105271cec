"""The worker process.

Threads
  receiver   receives orders (only while the database is reachable and a
             processing slot is free) and hands them to the processors
  processors validate; poison -> DLQ; valid -> sleep WORK_SECONDS, record the
             order and its outbox event in one statement, delete the message
  extender   keeps the visibility of every held message extended
  publisher  publishes outbox events to SNS (any worker's), marks them published
  liveness   heartbeat + advisory lock per process; hands back the messages of
             a worker that died (SIGKILL) so they need not wait for their
             visibility timeout

Guarantees, and where they come from
  * an order row exists iff its outbox row exists (one statement), and an
    event is only ever published from the outbox: no event without a record;
  * duplicates (producer or SQS) are absorbed by `on conflict do nothing`;
  * event ids are uuid5(order_id): every copy of an event has the same id;
  * a message is deleted only after its order is committed; an event is marked
    published only after SNS accepted it: kills lose nothing, they only cause
    re-deliveries/re-publishes that the above makes harmless;
  * nothing is received while the database is down, and held messages are kept
    (extended), never given back, so valid orders do not pile up receives and
    reach the DLQ through the redrive policy;
  * every retry goes through a per-process Gate (pacing.py);
  * nothing makes the process exit except SIGTERM/SIGINT.
"""

import logging
import os
import secrets
import signal
import sys
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor

import psycopg

from . import db as dbm
from . import settings
from .awsclient import RECEIPT_GONE, Aws, AwsUnavailable, Rejected
from .db import Database, DbUnavailable
from .orders import parse_order
from .pacing import Gate

log = logging.getLogger("worker")

stopping = threading.Event()
_stop_time = [None]


def _since_stop():
    t = _stop_time[0]
    return 0.0 if t is None else time.monotonic() - t


class _Quiet:
    """Rate-limited warnings: a lasting outage must not flood the logs."""

    def __init__(self, every=2.0):
        self.every = every
        self.last = {}
        self.lock = threading.Lock()

    def warn(self, key, msg, *args):
        now = time.monotonic()
        with self.lock:
            if now - self.last.get(key, -1e9) < self.every:
                return
            self.last[key] = now
        log.warning(msg, *args)


quiet = _Quiet()


# ----------------------------------------------------------------- held messages

class Held:
    """A message this process has received and not yet finished."""

    NEW, WORKING, RECORDED, DONE, RELEASED = "new", "working", "recorded", "done", "released"

    def __init__(self, token, msg, received_at):
        self.token = token
        self.receipt = msg["ReceiptHandle"]
        self.message_id = msg.get("MessageId", "?")
        self.body = msg.get("Body")
        self.attributes = msg.get("MessageAttributes") or {}
        self.state = Held.NEW
        self.extended = received_at      # monotonic time of the last (re)set of visibility
        self.lost = False                # visibility could not be kept: SQS may hand it out
        self.worked = False              # WORK_SECONDS already spent on it


class Registry:
    def __init__(self):
        self._lock = threading.Lock()
        self._items = {}
        self._next = 0

    def add(self, msg, received_at):
        with self._lock:
            self._next += 1
            h = Held(self._next, msg, received_at)
            self._items[h.token] = h
            return h

    def finish(self, h, state):
        with self._lock:
            h.state = state
            self._items.pop(h.token, None)

    def snapshot(self):
        with self._lock:
            return list(self._items.values())


# ------------------------------------------------------------------------ app

class App:
    def __init__(self, env):
        self.env = env
        self.worker_id = uuid.uuid4().hex
        self.aws = Aws()
        self.db_gate = Gate("postgres")
        self.db = Database(env.database_url, self.db_gate, "main")
        self.pub_db = Database(env.database_url, self.db_gate, "publisher")
        self.live_db = Database(env.database_url, self.db_gate, "liveness")
        self.schema_ready = threading.Event()
        self.schema_ready_at = 0.0
        self.lease_ready = threading.Event()
        self.registry = Registry()
        self.slots = threading.Semaphore(settings.PROCESSORS)
        self.pool = ThreadPoolExecutor(settings.PROCESSORS, thread_name_prefix="processor")
        self._active = 0
        self._active_cv = threading.Condition()
        self.publish_wake = threading.Event()
        self.threads = {}

    # -- threads ---------------------------------------------------------------

    def start(self):
        self._spawn("receiver", self.receiver)
        self._spawn("extender", self.extender)
        self._spawn("liveness", self.liveness)
        self._spawn("publisher", self.publisher, after_stop=True)
        log.info("worker %s started (queue %s)", self.worker_id, self.env.queue_url)

    def _spawn(self, name, fn, after_stop=False):
        def run():
            while True:
                try:
                    fn()
                    return
                except Exception:
                    log.exception("%s crashed; restarting it", name)
                    time.sleep(0.5)
                    if stopping.is_set() and not after_stop:
                        return
                    if after_stop and _since_stop() > settings.STOP_PUBLISHER_BY:
                        return

        t = threading.Thread(target=run, name=name, daemon=True)
        t.start()
        self.threads[name] = (t, fn, after_stop)

    def supervise(self):
        for name, (t, fn, after_stop) in list(self.threads.items()):
            if not t.is_alive() and not stopping.is_set():
                log.error("thread %s is gone; starting it again", name)
                self._spawn(name, fn, after_stop)

    # -- schema ------------------------------------------------------------------

    def ensure_schema(self):
        try:
            self.db.execute(dbm.SCHEMA)
            self.schema_ready_at = time.monotonic()
            self.schema_ready.set()
            log.info("schema ready")
        except DbUnavailable as e:
            quiet.warn("schema", "database unavailable (%s); waiting", e)
            self.db_gate.pause(stopping)
        except psycopg.Error as e:
            quiet.warn("schema-err", "creating tables failed: %s", dbm._short(e))
            stopping.wait(1.0)

    # -- receiver -----------------------------------------------------------------

    def receiver(self):
        while not stopping.is_set():
            if not self.schema_ready.is_set():
                self.ensure_schema()
                continue
            if (not self.lease_ready.is_set()
                    and time.monotonic() - self.schema_ready_at < 10):
                # Let the liveness thread register this process first, so that
                # what we receive can be handed back if we are killed (but do
                # not depend on it for ever).
                self.lease_ready.wait(0.2)
                continue
            if not self.db.up:
                # Database down: receive nothing (a message received now could
                # only be held or given back, and giving back grows its receive
                # count towards the DLQ).
                try:
                    self.db.connect()
                except DbUnavailable as e:
                    quiet.warn("recv-db", "database unavailable (%s); not receiving", e)
                    self.db_gate.pause(stopping)
                    continue
            if not self.slots.acquire(timeout=0.2):
                continue
            n = 1
            while n < min(10, settings.PROCESSORS) and self.slots.acquire(blocking=False):
                n += 1
            started = time.monotonic()
            try:
                resp = self.aws.call(
                    self.aws.sqs_gate, self.aws.sqs.receive_message,
                    QueueUrl=self.env.queue_url,
                    MaxNumberOfMessages=n,
                    WaitTimeSeconds=settings.RECEIVE_WAIT,
                    VisibilityTimeout=settings.VISIBILITY_TIMEOUT,
                    MessageAttributeNames=["All"],
                )
            except AwsUnavailable as e:
                for _ in range(n):
                    self.slots.release()
                quiet.warn("recv", "receive failed: %s", e)
                self.aws.sqs_gate.pause(stopping)
                continue
            msgs = resp.get("Messages") or []
            for _ in range(n - len(msgs)):
                self.slots.release()
            if not msgs:
                continue
            held = [self.registry.add(m, started) for m in msgs]
            self.track(held)
            if stopping.is_set():
                return  # shutdown hands them back
            for h in held:
                self.pool.submit(self._process_guarded, h)

    def track(self, held):
        """Remember receipt handles in the database, so that if this process is
        killed another worker can make its messages visible again at once."""
        try:
            self.db.execute(
                "insert into worker_inflight (worker_id, token, receipt_handle) "
                "select %s, t.token, t.rh from unnest(%s::bigint[], %s::text[]) as t(token, rh) "
                "on conflict do nothing",
                (self.worker_id, [h.token for h in held], [h.receipt for h in held]))
        except (DbUnavailable, psycopg.Error) as e:
            quiet.warn("track", "could not record in-flight messages: %s", e)

    def untrack(self, h):
        try:
            self.db.execute("delete from worker_inflight where worker_id = %s and token = %s",
                            (self.worker_id, h.token))
        except (DbUnavailable, psycopg.Error) as e:
            quiet.warn("untrack", "could not clear in-flight message: %s", e)

    # -- processors ----------------------------------------------------------------

    def _process_guarded(self, h):
        with self._active_cv:
            self._active += 1
        try:
            while not stopping.is_set():
                try:
                    self.process(h)
                    return
                except Exception:
                    # Every step is idempotent: try again (the message stays held).
                    log.exception("processing message %s failed; retrying", h.message_id)
                    stopping.wait(1.0)
        finally:
            self.slots.release()
            with self._active_cv:
                self._active -= 1
                self._active_cv.notify_all()

    def active(self):
        with self._active_cv:
            return self._active

    def process(self, h):
        if h.state == Held.RECORDED:  # recorded or moved already: only the delete is left
            self.delete(h)
            return
        if h.state not in (Held.NEW, Held.WORKING):
            return
        order = parse_order(h.body)
        if order is None:
            log.warning("message %s is poison; moving it to the DLQ", h.message_id)
            self.dead_letter(h)
            return
        h.state = Held.WORKING
        if not h.worked:
            if stopping.wait(self.env.work_seconds):
                return  # shutdown hands it back
            h.worked = True
        outcome = self.record(order)
        if outcome is None:
            return  # stopping; shutdown hands it back
        if outcome is False:
            log.error("order %r in message %s cannot be stored as sent; moving it to the DLQ",
                      order.order_id, h.message_id)
            self.dead_letter(h)
            return
        h.state = Held.RECORDED
        self.publish_wake.set()
        self.delete(h)

    def record(self, order):
        """True once recorded (now or before); False if it can never be stored
        as sent; None if stopping first."""
        params = {
            "order_id": order.order_id,
            "customer_id": order.customer_id,
            "amount_cents": order.amount_cents,
            "status": order.status,
            "event_id": order.event_id,
        }
        while not stopping.is_set():
            try:
                self.db.execute(dbm.RECORD, params)
                return True
            except DbUnavailable as e:
                quiet.warn("record", "recording order failed, will retry: %s", e)
                self.db_gate.pause(stopping)
                stopping.wait(0.05)
            except (psycopg.DataError, UnicodeError) as e:
                log.error("order %r rejected by the database: %s", order.order_id, e)
                return False
            except psycopg.Error as e:
                quiet.warn("record-err", "recording order failed, will retry: %s", dbm._short(e))
                stopping.wait(1.0)
        return None

    def delete(self, h):
        while True:
            try:
                self.aws.call(self.aws.sqs_gate, self.aws.sqs.delete_message, gone=RECEIPT_GONE,
                              QueueUrl=self.env.queue_url, ReceiptHandle=h.receipt)
            except Rejected as e:
                # Its visibility ran out (only after a long AWS outage): another
                # worker may get it again, and will find it already recorded.
                quiet.warn("delete-gone", "message %s could not be deleted (%s)", h.message_id, e.code)
            except AwsUnavailable as e:
                if stopping.is_set():
                    return  # shutdown deletes it
                quiet.warn("delete", "delete failed, will retry: %s", e)
                self.aws.sqs_gate.pause(stopping)
                continue
            self.registry.finish(h, Held.DONE)
            self.untrack(h)
            return

    def dead_letter(self, h):
        attrs = {}
        for name, v in h.attributes.items():
            a = {"DataType": v.get("DataType", "String")}
            if "StringValue" in v:
                a["StringValue"] = v["StringValue"]
            elif "BinaryValue" in v:
                a["BinaryValue"] = v["BinaryValue"]
            else:
                continue
            attrs[name] = a
        while not stopping.is_set():
            kwargs = {"QueueUrl": self.env.dlq_url, "MessageBody": h.body}
            if attrs:
                kwargs["MessageAttributes"] = attrs
            try:
                self.aws.call(self.aws.sqs_gate, self.aws.sqs.send_message,
                              gone=frozenset({"InvalidParameterValue", "InvalidAttributeName",
                                              "InvalidAttributeValue", "InvalidMessageContents"}),
                              **kwargs)
                break
            except Rejected as e:
                if attrs:
                    log.warning("DLQ refused the attributes of %s (%s); sending the body alone",
                                h.message_id, e.code)
                    attrs = {}
                    continue
                # Cannot happen for a body SQS delivered; leave the message to
                # the queue's redrive policy.
                log.error("DLQ refused message %s (%s); leaving it to the redrive policy",
                          h.message_id, e.code)
                self.release_one(h, self.aws.sqs)
                return
            except AwsUnavailable as e:
                quiet.warn("dlq", "moving poison to the DLQ failed, will retry: %s", e)
                self.aws.sqs_gate.pause(stopping)
        else:
            return  # stopping before it was moved: shutdown hands it back
        h.state = Held.RECORDED  # "done with it, only the delete is left"
        self.delete(h)

    def release_one(self, h, client, ignore_gate=False):
        try:
            self.aws.call(self.aws.sqs_gate, client.change_message_visibility, gone=RECEIPT_GONE,
                          ignore_gate=ignore_gate, QueueUrl=self.env.queue_url,
                          ReceiptHandle=h.receipt, VisibilityTimeout=0)
        except Rejected:
            pass
        self.registry.finish(h, Held.RELEASED)

    # -- extender ----------------------------------------------------------------------

    def extender(self):
        while not stopping.wait(0.5):
            now = time.monotonic()
            for h in self.registry.snapshot():
                if stopping.is_set():
                    return
                if h.lost or h.state in (Held.DONE, Held.RELEASED):
                    continue
                if now - h.extended < settings.EXTEND_EVERY:
                    continue
                started = time.monotonic()
                try:
                    self.aws.call(self.aws.sqs_gate, self.aws.sqs.change_message_visibility,
                                  gone=RECEIPT_GONE, QueueUrl=self.env.queue_url,
                                  ReceiptHandle=h.receipt,
                                  VisibilityTimeout=settings.VISIBILITY_TIMEOUT)
                    h.extended = started
                except Rejected as e:
                    if h.state not in (Held.DONE, Held.RELEASED):
                        h.lost = True
                        log.warning("lost hold of message %s (%s)", h.message_id, e.code)
                except AwsUnavailable as e:
                    quiet.warn("extend", "extending visibility failed: %s", e)
                    break  # the gate paces the next round

    # -- publisher --------------------------------------------------------------------

    def publisher(self):
        while not self.schema_ready.wait(0.2):
            if stopping.is_set():
                return
        while True:
            if stopping.is_set() and _since_stop() > settings.STOP_PUBLISHER_BY:
                return
            n = self.publish_batch()
            if n is None:  # database or SNS failing: the gates pace the retries
                wait = max(self.aws.sns_gate.remaining(),
                           0.0 if self.pub_db.up else self.db_gate.remaining())
                time.sleep(min(0.5, max(0.05, wait)))
                continue
            if n > 0:
                continue
            if stopping.is_set() and self.active() == 0:
                return  # nothing left to publish and nothing more coming
            self.publish_wake.wait(0.1 if stopping.is_set() else 0.5)
            self.publish_wake.clear()

    def publish_batch(self):
        """Publishes up to 10 pending events. Returns how many, 0 if none is
        pending, None on failure."""
        db = self.pub_db
        try:
            db.execute("begin")
            rows = db.execute(
                "select order_id, event_type, body from order_outbox "
                "where published_at is null order by seq limit 10 for update skip locked",
                fetch=True)
            if not rows:
                db.execute("commit")
                return 0
            published = []
            for order_id, event_type, body in rows:
                try:
                    self.aws.call(
                        self.aws.sns_gate, self.aws.sns.publish,
                        TopicArn=self.env.topic_arn, Message=body,
                        MessageAttributes={
                            "event_type": {"DataType": "String", "StringValue": event_type}})
                except AwsUnavailable as e:
                    quiet.warn("publish", "publishing events failed, will retry: %s", e)
                    break
                published.append(order_id)
            if published:
                db.execute("update order_outbox set published_at = now() "
                           "where order_id = any(%s::text[])", (published,))
            db.execute("commit")
            return len(published) if published else None
        except DbUnavailable as e:
            # The transaction died with the connection; whatever was published
            # but not marked is published again later, under the same event_id.
            quiet.warn("publish-db", "outbox unavailable: %s", e)
            return None
        except Exception as e:
            quiet.warn("publish-err", "outbox error: %s", e)
            db.drop()
            return None

    # -- liveness / reaper --------------------------------------------------------------

    def liveness(self):
        while not self.schema_ready.wait(0.2):
            if stopping.is_set():
                return
        db = self.live_db
        key = None
        generation = None
        last_reap = 0.0
        last_sweep = 0.0
        while not stopping.is_set():
            try:
                db.connect()
                if db.generation != generation:
                    generation, key = db.generation, None
                if key is None:
                    candidate = secrets.randbits(63)
                    got = db.execute("select pg_try_advisory_lock(%s)", (candidate,),
                                     fetch=True, timeout=3)[0][0]
                    if not got or db.generation != generation:
                        continue
                    key = candidate
                db.execute(
                    "insert into worker_lease (worker_id, lock_key, heartbeat_at) "
                    "values (%s, %s, now()) on conflict (worker_id) do update "
                    "set lock_key = excluded.lock_key, heartbeat_at = now()",
                    (self.worker_id, key), timeout=3)
                if db.generation != generation:
                    continue  # reconnected under us: lock again first
                self.lease_ready.set()
                now = time.monotonic()
                up_for = now - (db.connected_at or now)
                if up_for >= settings.REAPER_WARMUP and now - last_reap >= 0.5:
                    last_reap = now
                    self.reap(db)
                    if now - last_sweep >= 30:
                        last_sweep = now
                        db.execute("delete from worker_inflight i where received_at < now() - interval '15 minutes' "
                                   "and not exists (select 1 from worker_lease l where l.worker_id = i.worker_id)",
                                   timeout=3)
            except DbUnavailable as e:
                quiet.warn("liveness", "liveness heartbeat failed: %s", e)
                self.db_gate.pause(stopping)
                continue
            except psycopg.Error as e:
                quiet.warn("liveness-err", "liveness error: %s", dbm._short(e))
                db.drop()
            stopping.wait(settings.HEARTBEAT_EVERY)

    def reap(self, db):
        """Hands back the messages of workers that are dead: heartbeat stale and
        their session-level advisory lock free (its session ended)."""
        rows = db.execute(
            "select worker_id, lock_key from worker_lease "
            "where worker_id <> %s and heartbeat_at < now() - make_interval(secs => %s)",
            (self.worker_id, settings.DEAD_AFTER), fetch=True, timeout=3)
        for worker_id, key in rows:
            if stopping.is_set():
                return
            if not db.execute("select pg_try_advisory_lock(%s)", (key,), fetch=True, timeout=3)[0][0]:
                continue  # alive
            receipts, age = [], None
            try:
                cur = db.execute(
                    "select lock_key, extract(epoch from now() - heartbeat_at)::float8 "
                    "from worker_lease where worker_id = %s", (worker_id,), fetch=True, timeout=3)
                if not cur or cur[0][0] != key or cur[0][1] < settings.DEAD_AFTER:
                    continue
                age = cur[0][1]
                # Forget them first: each receipt is handed back at most once.
                receipts = [r[0] for r in db.execute(
                    "delete from worker_inflight where worker_id = %s returning receipt_handle",
                    (worker_id,), fetch=True, timeout=3)]
                db.execute("delete from worker_lease where worker_id = %s and lock_key = %s",
                           (worker_id, key), timeout=3)
            finally:
                try:
                    db.execute("select pg_advisory_unlock(%s)", (key,), timeout=3)
                except (DbUnavailable, psycopg.Error):
                    pass  # a lost session releases it anyway
            handed = 0
            if age is not None and age < settings.RESET_WINDOW:
                # Its receipts are still current: it kept them extended until it
                # died a moment ago.
                for rh in receipts:
                    try:
                        self.aws.call(self.aws.sqs_gate, self.aws.sqs.change_message_visibility,
                                      gone=RECEIPT_GONE, QueueUrl=self.env.queue_url,
                                      ReceiptHandle=rh, VisibilityTimeout=0)
                        handed += 1
                    except Rejected:
                        pass  # already deleted
                    except AwsUnavailable:
                        break  # its visibility timeout will do it
            log.info("worker %s is gone; handed back %d of its %d message(s)",
                     worker_id, handed, len(receipts))

    # -- shutdown ---------------------------------------------------------------------

    def _join(self, name, by):
        t = self.threads.get(name, (None,))[0]
        if t is not None:
            t.join(max(0.0, by - _since_stop()))

    def _hand_back(self, deadline):
        """Delete what is recorded, make visible again what is not."""
        for h in self.registry.snapshot():
            if _since_stop() > deadline:
                return
            try:
                if h.state == Held.RECORDED:
                    self.aws.call(self.aws.sqs_gate, self.aws.sqs_quick.delete_message,
                                  gone=RECEIPT_GONE, ignore_gate=True,
                                  QueueUrl=self.env.queue_url, ReceiptHandle=h.receipt)
                    self.registry.finish(h, Held.DONE)
                elif h.state in (Held.NEW, Held.WORKING):
                    self.release_one(h, self.aws.sqs_quick, ignore_gate=True)
            except Rejected:
                self.registry.finish(h, Held.DONE)
            except AwsUnavailable as e:
                log.warning("could not hand back messages: %s", e)
                return

    def shutdown(self):
        log.info("stopping")
        self._join("receiver", settings.STOP_RECEIVER_BY)
        self._join("extender", settings.STOP_RECEIVER_BY)
        with self._active_cv:
            while self._active and _since_stop() < settings.STOP_PROCESSORS_BY:
                self._active_cv.wait(max(0.01, settings.STOP_PROCESSORS_BY - _since_stop()))
        if self.registry.snapshot():
            try:
                self.db.execute("delete from worker_inflight where worker_id = %s",
                                (self.worker_id,), timeout=0.5, reconnect=False)
            except (DbUnavailable, psycopg.Error):
                pass
            self._hand_back(settings.HARD_EXIT_AT - 0.5)
        try:
            self.live_db.execute("delete from worker_lease where worker_id = %s",
                                 (self.worker_id,), timeout=0.5, reconnect=False)
        except (DbUnavailable, psycopg.Error):
            pass
        self._join("publisher", settings.STOP_PUBLISHER_BY)
        # A receive that was still under way may have brought messages back.
        self._hand_back(settings.HARD_EXIT_AT - 0.3)
        log.info("stopped")


# ----------------------------------------------------------------------- main

def _on_signal(signum, _frame):
    if stopping.is_set():
        return
    _stop_time[0] = time.monotonic()
    stopping.set()
    t = threading.Timer(settings.HARD_EXIT_AT, os._exit, args=(0,))
    t.daemon = True
    t.start()


def main():
    logging.basicConfig(
        level=logging.INFO, stream=sys.stderr,
        format="%(asctime)s pid=%(process)d %(threadName)s %(levelname)s %(message)s")
    logging.getLogger("botocore").setLevel(logging.WARNING)
    signal.signal(signal.SIGTERM, _on_signal)
    signal.signal(signal.SIGINT, _on_signal)

    app = None
    while app is None and not stopping.is_set():
        try:
            from .settings import Env
            app = App(Env.load())
        except Exception as e:
            # Never exit on our own: wait, and try again.
            quiet.warn("init", "cannot start yet: %s", e)
            stopping.wait(2.0)
    if app is not None:
        app.start()
        while not stopping.wait(1.0):
            app.supervise()
        app.shutdown()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)
