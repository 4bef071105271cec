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

log = logging.getLogger("worker")

VISIBILITY = 60
HEARTBEAT_EVERY = 10
WAIT_SECONDS = 2

stop = threading.Event()
held_lock = threading.Lock()
held = {}  # receipt handle -> message


class Backoff:
    def __init__(self, base=0.25, cap=2.0):
        self.base, self.cap, self.cur = base, cap, base

    def ok(self):
        self.cur = self.base

    def fail(self):
        d = self.cur * (0.5 + random.random() / 2)
        self.cur = min(self.cap, self.cur * 2)
        stop.wait(d)


def sqs_client(read_timeout):
    cfg = Config(
        connect_timeout=2,
        read_timeout=read_timeout,
        retries={"mode": "standard", "total_max_attempts": 1},
    )
    return boto3.client("sqs", config=cfg)


SCHEMA = """
create table if not exists postings (
  posting_id text primary key,
  account_id text not null,
  amount_cents bigint not null,
  status text not null,
  seq bigint generated always as identity
);
create table if not exists accounts (account_id text primary key, balance_cents bigint not null);
"""


class Db:
    def __init__(self, url):
        self.url = url
        self.conn = None

    def get(self):
        if self.conn is None or self.conn.closed:
            conn = psycopg.connect(
                self.url,
                autocommit=True,
                connect_timeout=5,
                keepalives=1,
                keepalives_idle=5,
                keepalives_interval=2,
                keepalives_count=2,
                options="-c statement_timeout=10000 -c idle_in_transaction_session_timeout=20000",
            )
            with conn.transaction():
                conn.execute("select pg_advisory_xact_lock(4242)")
                conn.execute(SCHEMA)
            self.conn = conn
        return self.conn

    def reset(self):
        if self.conn is not None:
            try:
                self.conn.close()
            except Exception:
                pass
        self.conn = None

    def apply(self, p):
        conn = self.get()
        with conn.transaction():
            conn.execute(
                "insert into accounts (account_id, balance_cents) values (%s, 0) on conflict do nothing",
                (p["account_id"],),
            )
            bal = conn.execute(
                "select balance_cents from accounts where account_id = %s for update",
                (p["account_id"],),
            ).fetchone()[0]
            if conn.execute("select 1 from postings where posting_id = %s", (p["posting_id"],)).fetchone():
                return "duplicate"
            amt = p["amount_cents"]
            status = "rejected" if amt < 0 and bal + amt < 0 else "applied"
            conn.execute(
                "insert into postings (posting_id, account_id, amount_cents, status) values (%s, %s, %s, %s)",
                (p["posting_id"], p["account_id"], amt, status),
            )
            if status == "applied":
                conn.execute(
                    "update accounts set balance_cents = balance_cents + %s where account_id = %s",
                    (amt, p["account_id"]),
                )
            return status


def parse(body):
    try:
        d = json.loads(body)
    except Exception:
        return None
    if not isinstance(d, dict):
        return None
    for k in ("posting_id", "account_id"):
        if not isinstance(d.get(k), str):
            return None
    a = d.get("amount_cents")
    if not isinstance(a, int) or isinstance(a, bool) or a == 0:
        return None
    return d


def heartbeat(sqs, queue_url):
    bo = Backoff()
    while not stop.wait(HEARTBEAT_EVERY):
        with held_lock:
            handles = list(held)
        for i in range(0, len(handles), 10):
            chunk = handles[i:i + 10]
            while not stop.is_set():
                try:
                    sqs.change_message_visibility_batch(
                        QueueUrl=queue_url,
                        Entries=[{"Id": str(n), "ReceiptHandle": h, "VisibilityTimeout": VISIBILITY}
                                 for n, h in enumerate(chunk)],
                    )
                    bo.ok()
                    break
                except Exception as e:
                    log.warning("heartbeat failed: %s", e)
                    bo.fail()


def retry(fn, what):
    bo = Backoff()
    while not stop.is_set():
        try:
            r = fn()
            return True, r
        except Exception as e:
            log.warning("%s failed: %s", what, e)
            bo.fail()
    return False, None


def consume(sqs, queue_url, dlq_url, db, work_seconds):
    bo = Backoff()
    while not stop.is_set():
        try:
            resp = sqs.receive_message(
                QueueUrl=queue_url,
                MaxNumberOfMessages=10,
                WaitTimeSeconds=WAIT_SECONDS,
                VisibilityTimeout=VISIBILITY,
                AttributeNames=["All"],
                MessageAttributeNames=["All"],
            )
            bo.ok()
        except Exception as e:
            log.warning("receive failed: %s", e)
            bo.fail()
            continue
        msgs = resp.get("Messages", [])
        with held_lock:
            for m in msgs:
                held[m["ReceiptHandle"]] = m
        for m in msgs:
            if stop.is_set():
                return
            handle_message(sqs, queue_url, dlq_url, db, work_seconds, m)


def handle_message(sqs, queue_url, dlq_url, db, work_seconds, m):
    p = parse(m["Body"])
    if p is None:
        group = m.get("Attributes", {}).get("MessageGroupId", "poison")
        ok, _ = retry(lambda: sqs.send_message(
            QueueUrl=dlq_url, MessageBody=m["Body"], MessageGroupId=group,
            MessageDeduplicationId=m["MessageId"]), "dlq send")
        if not ok:
            return
    else:
        def precheck():
            try:
                return db.get().execute("select 1 from postings where posting_id = %s",
                                        (p["posting_id"],)).fetchone() is not None
            except Exception:
                db.reset()
                raise
        ok, done = retry(precheck, "precheck")
        if not ok:
            return
        if not done:
            if stop.wait(work_seconds):
                return

            def apply():
                try:
                    return db.apply(p)
                except Exception:
                    db.reset()
                    raise
            ok, status = retry(apply, "apply")
            if not ok:
                return
            log.info("posting %s %s", p["posting_id"], status)
    ok, _ = retry(lambda: sqs.delete_message(QueueUrl=queue_url, ReceiptHandle=m["ReceiptHandle"]), "delete")
    if ok:
        with held_lock:
            held.pop(m["ReceiptHandle"], None)


def main():
    logging.basicConfig(level=logging.INFO, stream=sys.stderr,
                        format="%(asctime)s %(process)d %(levelname)s %(message)s")
    queue_url = os.environ["QUEUE_URL"]
    dlq_url = os.environ["DLQ_URL"]
    work_seconds = float(os.environ.get("WORK_SECONDS", "0"))
    db = Db(os.environ["DATABASE_URL"])
    sqs = sqs_client(WAIT_SECONDS + 5)
    fast = sqs_client(2)

    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())

    threading.Thread(target=heartbeat, args=(fast, queue_url), daemon=True).start()
    threading.Thread(target=consume, args=(sqs, queue_url, dlq_url, db, work_seconds), daemon=True).start()

    while not stop.wait(1):
        pass
    deadline = time.monotonic() + 4
    # give an in-progress delete a moment, then release what is still held
    time.sleep(0.5)
    with held_lock:
        handles = list(held)
    for i in range(0, len(handles), 10):
        if time.monotonic() > deadline:
            break
        try:
            fast.change_message_visibility_batch(
                QueueUrl=queue_url,
                Entries=[{"Id": str(n), "ReceiptHandle": h, "VisibilityTimeout": 0}
                         for n, h in enumerate(handles[i:i + 10])],
            )
        except Exception as e:
            log.warning("release failed: %s", e)
    os._exit(0)
