"""Orders worker: SQS -> PostgreSQL (with a transactional outbox) -> SNS."""

import json
import logging
import os
import random
import signal
import sys
import threading
import time
import uuid

import boto3
import psycopg
from botocore.config import Config
from botocore.exceptions import BotoCoreError, ClientError

log = logging.getLogger("worker")

VISIBILITY = 45          # seconds; matches the queue default
EXTEND_EVERY = 10        # seconds between visibility extensions
EVENT_NS = uuid.UUID("6f1c2b9e-6a43-4a8e-9a57-3c1f0d6a7b21")

stopping = threading.Event()

SCHEMA = """
create table if not exists orders (order_id text primary key, customer_id text,
                                   amount_cents bigint, status text);
create table if not exists order_events (
    order_id   text primary key,
    event_id   text not null unique,
    event_type text not null,
    body       text not null,
    published  boolean not null default false,
    created_at timestamptz not null default now()
);
create index if not exists order_events_pending on order_events (created_at) where not published;
"""


class Backoff:
    def __init__(self, base=0.2, cap=5.0):
        self.base, self.cap, self.n = base, cap, 0

    def reset(self):
        self.n = 0

    def wait(self):
        delay = min(self.cap, self.base * (2 ** self.n))
        self.n += 1
        stopping.wait(random.uniform(delay / 2, delay))


def aws_config():
    return Config(connect_timeout=3, read_timeout=10,
                  retries={"total_max_attempts": 1, "mode": "standard"})


def validate(body):
    try:
        o = json.loads(body)
    except (ValueError, TypeError):
        return None
    if not isinstance(o, dict):
        return None
    for f in ("order_id", "customer_id", "status"):
        if not isinstance(o.get(f), str):
            return None
    a = o.get("amount_cents")
    if not isinstance(a, int) or isinstance(a, bool) or a <= 0 or a >= 2 ** 63:
        return None
    if o["status"] not in ("placed", "cancelled"):
        return None
    return o


class Db:
    def __init__(self, url):
        self.url = url
        self.conn = None
        self.backoff = Backoff()

    def get(self):
        while not stopping.is_set():
            if self.conn is not None and not self.conn.closed:
                return self.conn
            try:
                self.conn = psycopg.connect(self.url, autocommit=True, connect_timeout=5,
                                            keepalives=1, keepalives_idle=5,
                                            keepalives_interval=2, keepalives_count=2)
                self.conn.execute("set statement_timeout = '15s'")
                self.backoff.reset()
                return self.conn
            except psycopg.Error as e:
                log.warning("db connect failed: %s", e)
                self.conn = None
                self.backoff.wait()
        return None

    def broken(self):
        try:
            if self.conn is not None:
                self.conn.close()
        except Exception:
            pass
        self.conn = None


def ensure_schema(db):
    bo = Backoff()
    while not stopping.is_set():
        conn = db.get()
        if conn is None:
            return False
        try:
            with conn.transaction():
                conn.execute("select pg_advisory_xact_lock(4242)")
                conn.execute(SCHEMA)
            return True
        except psycopg.Error as e:
            log.warning("schema failed: %s", e)
            db.broken()
            bo.wait()
    return False


def record(conn, o):
    with conn.transaction():
        conn.execute(
            "insert into orders (order_id, customer_id, amount_cents, status) "
            "values (%s, %s, %s, %s) on conflict (order_id) do nothing",
            (o["order_id"], o["customer_id"], o["amount_cents"], o["status"]))
        row = conn.execute(
            "select customer_id, amount_cents, status from orders where order_id = %s",
            (o["order_id"],)).fetchone()
        event_type = "order." + row[2]
        event = {
            "event_id": str(uuid.uuid5(EVENT_NS, o["order_id"])),
            "event_type": event_type,
            "order_id": o["order_id"],
            "customer_id": row[0],
            "amount_cents": row[1],
            "status": row[2],
        }
        conn.execute(
            "insert into order_events (order_id, event_id, event_type, body) "
            "values (%s, %s, %s, %s) on conflict (order_id) do nothing",
            (o["order_id"], event["event_id"], event_type, json.dumps(event)))


class Publisher(threading.Thread):
    def __init__(self, url, sns, topic):
        super().__init__(daemon=True)
        self.db = Db(url)
        self.sns, self.topic = sns, topic
        self.wake = threading.Event()
        self.backoff = Backoff()
        self.deadline = None

    def flush_once(self):
        """Publish one batch; returns number published, or -1 on failure."""
        conn = self.db.get()
        if conn is None:
            return -1
        n = 0
        try:
            with conn.transaction():
                rows = conn.execute(
                    "select order_id, event_type, body from order_events where not published "
                    "order by created_at limit 10 for update skip locked").fetchall()
                for order_id, event_type, body in rows:
                    try:
                        self.sns.publish(TopicArn=self.topic, Message=body, MessageAttributes={
                            "event_type": {"DataType": "String", "StringValue": event_type}})
                    except (BotoCoreError, ClientError) as e:
                        log.warning("publish failed: %s", e)
                        break
                    conn.execute("update order_events set published = true where order_id = %s",
                                 (order_id,))
                    n += 1
                else:
                    return n
            return n if n else -1
        except psycopg.Error as e:
            log.warning("publisher db error: %s", e)
            self.db.broken()
            return -1

    def run(self):
        while True:
            if stopping.is_set() and (self.deadline is None or time.monotonic() > self.deadline):
                return
            try:
                n = self.flush_once()
            except Exception:
                log.exception("publisher error")
                n = -1
            if n > 0:
                self.backoff.reset()
                continue
            if n < 0:
                self.backoff.wait() if not stopping.is_set() else time.sleep(0.3)
                continue
            if stopping.is_set():
                return
            self.wake.wait(0.5)
            self.wake.clear()


class Extender(threading.Thread):
    """Keeps the visibility of the message being processed extended."""

    def __init__(self, sqs, queue_url):
        super().__init__(daemon=True)
        self.sqs, self.queue_url = sqs, queue_url
        self.lock = threading.Lock()
        self.receipt = None
        self.last = 0.0

    def hold(self, receipt):
        with self.lock:
            self.receipt, self.last = receipt, time.monotonic()

    def drop(self):
        with self.lock:
            self.receipt = None

    def run(self):
        while not stopping.is_set():
            time.sleep(1)
            with self.lock:
                r, last = self.receipt, self.last
            if r is None or time.monotonic() - last < EXTEND_EVERY:
                continue
            try:
                self.sqs.change_message_visibility(QueueUrl=self.queue_url, ReceiptHandle=r,
                                                   VisibilityTimeout=VISIBILITY)
                with self.lock:
                    if self.receipt == r:
                        self.last = time.monotonic()
            except (BotoCoreError, ClientError) as e:
                log.warning("extend failed: %s", e)
                time.sleep(2)


def main():
    logging.basicConfig(level=logging.INFO, stream=sys.stderr,
                        format="%(asctime)s %(process)d %(threadName)s %(message)s")
    signal.signal(signal.SIGTERM, lambda *_: stopping.set())
    signal.signal(signal.SIGINT, lambda *_: stopping.set())

    queue_url = os.environ["QUEUE_URL"]
    dlq_url = os.environ["DLQ_URL"]
    topic = os.environ["TOPIC_ARN"]
    url = os.environ["DATABASE_URL"]
    work = float(os.environ.get("WORK_SECONDS", "0") or 0)

    sqs = boto3.client("sqs", config=aws_config())
    sns = boto3.client("sns", config=aws_config())

    db = Db(url)
    ensure_schema(db)

    publisher = Publisher(url, sns, topic)
    publisher.start()
    extender = Extender(sqs, queue_url)
    extender.start()

    aws_bo = Backoff()
    current = None
    while not stopping.is_set():
        try:
            if db.get() is None:
                break
            resp = sqs.receive_message(QueueUrl=queue_url, MaxNumberOfMessages=1,
                                       WaitTimeSeconds=2, MessageAttributeNames=["All"],
                                       VisibilityTimeout=VISIBILITY)
            aws_bo.reset()
        except (BotoCoreError, ClientError) as e:
            log.warning("receive failed: %s", e)
            aws_bo.wait()
            continue
        for m in resp.get("Messages", []):
            current = m
            extender.hold(m["ReceiptHandle"])
            try:
                done = handle(m, db, sqs, queue_url, dlq_url, work, publisher)
            except Exception:
                log.exception("unexpected error handling message")
                done = False
            extender.drop()
            if not done:
                release(sqs, queue_url, m)
            current = None

    # shutdown: give the publisher a moment to flush recorded events
    watchdog = threading.Timer(4.5, lambda: os._exit(0))
    watchdog.daemon = True
    watchdog.start()
    publisher.deadline = time.monotonic() + 3.5
    publisher.wake.set()
    publisher.join(4.0)
    os._exit(0)


def release(sqs, queue_url, m):
    try:
        sqs.change_message_visibility(QueueUrl=queue_url, ReceiptHandle=m["ReceiptHandle"],
                                      VisibilityTimeout=0)
    except (BotoCoreError, ClientError) as e:
        log.warning("release failed: %s", e)


def delete(sqs, queue_url, m):
    bo = Backoff()
    while True:
        try:
            sqs.delete_message(QueueUrl=queue_url, ReceiptHandle=m["ReceiptHandle"])
            return True
        except (BotoCoreError, ClientError) as e:
            log.warning("delete failed: %s", e)
            if stopping.is_set():
                return True  # recorded already; a redelivery is idempotent
            bo.wait()


def handle(m, db, sqs, queue_url, dlq_url, work, publisher):
    """Returns True when the message is finished (deleted), False to release it."""
    body = m.get("Body", "")
    o = validate(body)
    if o is None:
        bo = Backoff()
        attrs = {k: {kk: vv for kk, vv in v.items() if kk in ("DataType", "StringValue", "BinaryValue")}
                 for k, v in (m.get("MessageAttributes") or {}).items()}
        while not stopping.is_set():
            try:
                kw = {"MessageAttributes": attrs} if attrs else {}
                sqs.send_message(QueueUrl=dlq_url, MessageBody=body, **kw)
                break
            except (BotoCoreError, ClientError) as e:
                log.warning("dlq send failed: %s", e)
                bo.wait()
        else:
            return False
        delete(sqs, queue_url, m)
        return True

    if stopping.wait(work):
        return False
    bo = Backoff()
    while True:
        if stopping.is_set():
            return False
        conn = db.get()
        if conn is None:
            return False
        try:
            record(conn, o)
            break
        except (psycopg.OperationalError, psycopg.InterfaceError) as e:
            log.warning("record failed: %s", e)
            db.broken()
            bo.wait()
        except psycopg.Error as e:
            log.warning("record failed (db error): %s", e)
            bo.wait()
    publisher.wake.set()
    delete(sqs, queue_url, m)
    return True
