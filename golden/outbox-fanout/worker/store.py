"""The orders database: schema, recording one order and its event exactly once, and
publishing the events not published yet (the transactional outbox).

Every call is bounded in time. connect_timeout bounds connecting; the session's
statement_timeout and lock_timeout bound work on the server. Neither helps when the
network hangs (packets dropped, not refused): libpq then waits for an answer forever, so
each transaction also runs under a client-side deadline that cuts the connection.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import psycopg

from worker.order import Order

log = logging.getLogger(__name__)

CONNECT_TIMEOUT_SECONDS = 3
TRANSACTION_DEADLINE_SECONDS = 8.0
SESSION_OPTIONS = ("-c statement_timeout=5000 -c lock_timeout=3000 "
                   "-c idle_in_transaction_session_timeout=10000")

# Workers start together: without this lock, concurrent `create table if not exists` can
# fail on the catalog's unique index (the check and the insert are not atomic).
SCHEMA_LOCK_KEY = 0x6F726465  # any constant shared by all workers
SCHEMA = (
    "create table if not exists orders ("
    " order_id text primary key, customer_id text, amount_cents bigint, status text)",
    # One event per order, written in the order's transaction: published (and marked) by
    # the relay after the commit, so a crash or an SNS failure in between loses nothing.
    "create table if not exists outbox ("
    " event_id text primary key, order_id text not null unique, event_type text not null,"
    " body text not null, published boolean not null default false)",
)
INSERT_ORDER = ("insert into orders (order_id, customer_id, amount_cents, status) "
                "values (%s, %s, %s, %s) on conflict (order_id) do nothing")
INSERT_EVENT = ("insert into outbox (event_id, order_id, event_type, body) "
                "values (%s, %s, %s, %s)")
# Another relay's row is skipped, not waited for: each pending event has one publisher at
# a time.
CLAIM_NEXT = ("select event_id, event_type, body from outbox where not published "
              "limit 1 for update skip locked")
MARK_PUBLISHED = "update outbox set published = true where event_id = %s"


class LeaseLost(Exception):
    """The message may be another worker's by now: the transaction was rolled back."""


@contextmanager
def _deadline(conn: psycopg.Connection, seconds: float) -> Iterator[None]:
    """Cut `conn` if the block is still running after `seconds`.

    Shutting the socket down (through a duplicate of its descriptor) wakes libpq at once
    with a connection error; the connection is then discarded by the caller.
    """
    lock = threading.Lock()
    running = True

    def cut() -> None:
        with lock:
            if not running:
                return
            log.warning("database call still running after %.0f s: cutting the connection",
                        seconds)
            try:
                with socket.socket(fileno=os.dup(conn.fileno())) as sock:
                    sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass  # already closed

    timer = threading.Timer(seconds, cut)
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        with lock:
            running = False
        timer.cancel()


class Store:
    """One connection to the orders database, reopened after any error."""

    def __init__(self, url: str) -> None:
        self._url = url
        self._conn: psycopg.Connection | None = None

    @property
    def connected(self) -> bool:
        return self._conn is not None and not self._conn.closed

    def connect(self) -> None:
        """Open a connection and make sure the tables exist (raises psycopg.Error)."""
        self.close()
        conn = psycopg.connect(self._url, autocommit=True,
                               connect_timeout=CONNECT_TIMEOUT_SECONDS,
                               options=SESSION_OPTIONS, application_name="outbox-worker")
        try:
            with _deadline(conn, TRANSACTION_DEADLINE_SECONDS), conn.transaction():
                conn.execute("select pg_advisory_xact_lock(%s)", (SCHEMA_LOCK_KEY,))
                for statement in SCHEMA:
                    conn.execute(statement)
        except BaseException:
            conn.close()
            raise
        self._conn = conn

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def record(self, order: Order, still_ours: Callable[[], bool]) -> bool:
        """Record `order` once; True if this call inserted it, False if it was there already.

        `still_ours` is asked just before the commit; if it says no, the transaction is
        rolled back and LeaseLost is raised. A commit whose answer is lost raises
        psycopg.Error although it may have committed: retrying is safe, the order is then
        found and nothing is added twice.
        """
        if not self.connected:
            self.connect()
        conn = self._conn
        assert conn is not None
        try:
            with _deadline(conn, TRANSACTION_DEADLINE_SECONDS), conn.transaction():
                cur = conn.execute(INSERT_ORDER, (order.order_id, order.customer_id,
                                                  order.amount_cents, order.status))
                inserted = cur.rowcount == 1
                if inserted:
                    event_id = str(uuid.uuid4())
                    conn.execute(INSERT_EVENT, (event_id, order.order_id, order.event_type,
                                                order.event(event_id)))
                if not still_ours():
                    raise LeaseLost()
        except psycopg.Error:
            self.close()
            raise
        return inserted

    def publish_next(self, publish: Callable[[str, str], None]) -> bool:
        """Publish one unpublished event with `publish(event_type, body)` and mark it, in one
        transaction; False if none is pending. An error (the database's or `publish`'s)
        rolls the mark back: the event is published again later, under the same event_id.
        One event per transaction, so that the deadline bounds one publish, not a batch."""
        if not self.connected:
            self.connect()
        conn = self._conn
        assert conn is not None
        try:
            with _deadline(conn, TRANSACTION_DEADLINE_SECONDS), conn.transaction():
                row = conn.execute(CLAIM_NEXT).fetchone()
                if row is None:
                    return False
                event_id, event_type, body = row
                publish(event_type, body)
                conn.execute(MARK_PUBLISHED, (event_id,))
        except psycopg.Error:
            self.close()
            raise
        return True
