import json
import logging
import os
import random
import signal
import sys
import threading
import time

import boto3
import psycopg
from botocore.config import Config
from botocore.exceptions import BotoCoreError, ClientError

log = logging.getLogger("worker")

QUEUE_URL = os.environ["QUEUE_URL"]
DLQ_URL = os.environ["DLQ_URL"]
DATABASE_URL = os.environ["DATABASE_URL"]
WORK_SECONDS = float(os.environ.get("WORK_SECONDS", "0") or 0)

VISIBILITY = 30      # seconds a received message stays hidden
HEARTBEAT = 10       # extend visibility this often while holding a message
WAIT = 5             # long poll

stop = threading.Event()

SCHEMA = """
create table if not exists orders (order_id text primary key, customer_id text, amount_cents bigint);
create table if not exists customer_balances (customer_id text primary key, balance_cents bigint);
"""

INVALID_HANDLE = ("ReceiptHandleIsInvalid", "MessageNotInflight", "InvalidParameterValue")


class Backoff:
    def __init__(self, base=0.25, cap=2.0):
        self.base, self.cap, self.n = base, cap, 0

    def reset(self):
        self.n = 0

    def wait(self):
        d = min(self.cap, self.base * (2 ** self.n))
        self.n += 1
        stop.wait(d / 2 + random.random() * d / 2)


def sqs_client():
    cfg = Config(
        connect_timeout=3,
        read_timeout=WAIT + 5,
        retries={"total_max_attempts": 1, "mode": "standard"},
    )
    return boto3.client("sqs", config=cfg)


def is_invalid_handle(e):
    code = e.response.get("Error", {}).get("Code", "") if isinstance(e, ClientError) else ""
    return any(c in code for c in INVALID_HANDLE)


def parse(body):
    try:
        d = json.loads(body)
    except (ValueError, TypeError):
        return None
    if not isinstance(d, dict):
        return None
    oid, cid, amt = d.get("order_id"), d.get("customer_id"), d.get("amount_cents")
    if not isinstance(oid, str) or not isinstance(cid, str):
        return None
    if not isinstance(amt, int) or isinstance(amt, bool) or amt <= 0:
        return None
    return oid, cid, amt


class DB:
    def __init__(self):
        self.conn = None
        self.schema_ok = False
        self.backoff = Backoff()

    def close(self):
        if self.conn is not None:
            try:
                self.conn.close()
            except Exception:
                pass
        self.conn = None

    def ensure(self):
        """Connect (with paced retries) until connected or stopping."""
        while not stop.is_set():
            try:
                if self.conn is None or self.conn.closed:
                    self.conn = psycopg.connect(
                        DATABASE_URL, autocommit=True, connect_timeout=5,
                        keepalives=1, keepalives_idle=5, keepalives_interval=2,
                        keepalives_count=3,
                    )
                    self.conn.execute("set statement_timeout = '15s'")
                if not self.schema_ok:
                    with self.conn.transaction():
                        self.conn.execute("select pg_advisory_xact_lock(8675309)")
                        self.conn.execute(SCHEMA)
                    self.schema_ok = True
                self.backoff.reset()
                return True
            except Exception as e:
                log.warning("database not ready: %s", e)
                self.close()
                self.backoff.wait()
        return False

    def record(self, oid, cid, amt):
        with self.conn.transaction():
            cur = self.conn.execute(
                "insert into orders (order_id, customer_id, amount_cents) values (%s, %s, %s)"
                " on conflict (order_id) do nothing", (oid, cid, amt))
            if cur.rowcount == 1:
                self.conn.execute(
                    "insert into customer_balances (customer_id, balance_cents) values (%s, %s)"
                    " on conflict (customer_id) do update"
                    " set balance_cents = customer_balances.balance_cents + excluded.balance_cents",
                    (cid, amt))


class Heartbeat(threading.Thread):
    def __init__(self):
        super().__init__(daemon=True)
        self.sqs = sqs_client()
        self.lock = threading.Lock()
        self.handle = None
        self.next_at = 0.0

    def hold(self, handle):
        with self.lock:
            self.handle = handle
            self.next_at = time.monotonic() + HEARTBEAT

    def drop(self):
        with self.lock:
            self.handle = None

    def run(self):
        backoff = Backoff()
        while True:
            time.sleep(0.5)
            with self.lock:
                handle = self.handle
                due = handle is not None and time.monotonic() >= self.next_at
            if not due:
                continue
            try:
                self.sqs.change_message_visibility(
                    QueueUrl=QUEUE_URL, ReceiptHandle=handle, VisibilityTimeout=VISIBILITY)
                backoff.reset()
                with self.lock:
                    if self.handle == handle:
                        self.next_at = time.monotonic() + HEARTBEAT
            except Exception as e:
                if is_invalid_handle(e):
                    self.drop()
                else:
                    log.warning("heartbeat failed: %s", e)
                    backoff.wait()


def call_until_done(fn, what):
    """Retry an SQS call with backoff until it succeeds, the handle is gone, or we stop."""
    backoff = Backoff()
    while True:
        try:
            fn()
            return True
        except Exception as e:
            if is_invalid_handle(e):
                return True
            log.warning("%s failed: %s", what, e)
            if stop.is_set():
                return False
            backoff.wait()


def main():
    logging.basicConfig(level=logging.INFO, stream=sys.stderr,
                        format="%(asctime)s %(process)d %(levelname)s %(message)s")
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())

    sqs = sqs_client()
    db = DB()
    hb = Heartbeat()
    hb.start()
    backoff = Backoff()

    while not stop.is_set():
        if not db.ensure():
            break
        try:
            resp = sqs.receive_message(
                QueueUrl=QUEUE_URL, MaxNumberOfMessages=1, WaitTimeSeconds=WAIT,
                VisibilityTimeout=VISIBILITY, MessageAttributeNames=["All"])
            backoff.reset()
        except Exception as e:
            log.warning("receive failed: %s", e)
            backoff.wait()
            continue
        for msg in resp.get("Messages", []):
            handle = msg["ReceiptHandle"]
            hb.hold(handle)
            try:
                process(sqs, db, msg)
            finally:
                hb.drop()

    log.info("stopping")
    sys.exit(0)


def release(sqs, handle):
    try:
        sqs.change_message_visibility(QueueUrl=QUEUE_URL, ReceiptHandle=handle, VisibilityTimeout=0)
    except Exception as e:
        log.warning("release failed: %s", e)


def process(sqs, db, msg):
    handle = msg["ReceiptHandle"]
    body = msg.get("Body", "")
    if stop.is_set():
        release(sqs, handle)
        return
    order = parse(body)
    delete = lambda: sqs.delete_message(QueueUrl=QUEUE_URL, ReceiptHandle=handle)
    if order is None:
        log.info("poison message %s -> DLQ", msg.get("MessageId"))
        kwargs = {"QueueUrl": DLQ_URL, "MessageBody": body}
        attrs = {k: {kk: vv for kk, vv in v.items() if kk in ("DataType", "StringValue", "BinaryValue")}
                 for k, v in (msg.get("MessageAttributes") or {}).items()}
        if attrs:
            kwargs["MessageAttributes"] = attrs
        if call_until_done(lambda: sqs.send_message(**kwargs), "send to DLQ"):
            call_until_done(delete, "delete")
        else:
            release(sqs, handle)
        return

    if stop.wait(WORK_SECONDS):
        release(sqs, handle)
        return

    backoff = Backoff()
    while True:
        if not db.ensure():
            release(sqs, handle)
            return
        try:
            db.record(*order)
            break
        except psycopg.errors.DataError as e:
            log.error("unrecordable order %s: %s", msg.get("MessageId"), e)
            call_until_done(lambda: sqs.send_message(QueueUrl=DLQ_URL, MessageBody=body), "send to DLQ")
            break
        except Exception as e:
            log.warning("recording failed: %s", e)
            db.close()
            if stop.is_set():
                release(sqs, handle)
                return
            backoff.wait()
    call_until_done(delete, "delete")
