"""The orders database: schema, and recording one order exactly once.

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
    " order_id text primary key, customer_id text, amount_cents bigint)",
    "create table if not exists customer_balances ("
    " customer_id text primary key, balance_cents bigint)",
)
INSERT_ORDER = ("insert into orders (order_id, customer_id, amount_cents) values (%s, %s, %s) "
                "on conflict (order_id) do nothing")
ADD_TO_BALANCE = ("insert into customer_balances (customer_id, balance_cents) values (%s, %s) "
                  "on conflict (customer_id) do update "
                  "set balance_cents = customer_balances.balance_cents + excluded.balance_cents")


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
                               options=SESSION_OPTIONS, application_name="order-worker")
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
                cur = conn.execute(INSERT_ORDER,
                                   (order.order_id, order.customer_id, order.amount_cents))
                inserted = cur.rowcount == 1
                if inserted:
                    conn.execute(ADD_TO_BALANCE, (order.customer_id, order.amount_cents))
                if not still_ours():
                    raise LeaseLost()
        except psycopg.Error:
            self.close()
            raise
        return inserted
