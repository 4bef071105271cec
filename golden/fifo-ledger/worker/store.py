"""The ledger database: schema, and applying one posting exactly once, in account order.

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

from worker.posting import Posting

log = logging.getLogger(__name__)

CONNECT_TIMEOUT_SECONDS = 3
TRANSACTION_DEADLINE_SECONDS = 8.0
SESSION_OPTIONS = ("-c statement_timeout=5000 -c lock_timeout=3000 "
                   "-c idle_in_transaction_session_timeout=10000")

# Workers start together: without this lock, concurrent `create table if not exists` can
# fail on the catalog's unique index (the check and the insert are not atomic).
SCHEMA_LOCK_KEY = 0x6C656467  # any constant shared by all workers
SCHEMA = (
    "create table if not exists postings ("
    " posting_id text primary key, account_id text not null, amount_cents bigint not null,"
    " status text not null, seq bigint generated always as identity)",
    "create table if not exists accounts ("
    " account_id text primary key, balance_cents bigint not null)",
)
OPEN_ACCOUNT = ("insert into accounts (account_id, balance_cents) values (%s, 0) "
                "on conflict (account_id) do nothing")
# Locks the account for the transaction: its postings apply one after the other.
LOCK_BALANCE = "select balance_cents from accounts where account_id = %s for update"
FIND_POSTING = "select status from postings where posting_id = %s"
INSERT_POSTING = ("insert into postings (posting_id, account_id, amount_cents, status) "
                  "values (%s, %s, %s, %s)")
ADD_TO_BALANCE = "update accounts set balance_cents = balance_cents + %s where account_id = %s"


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
    """One connection to the ledger database, reopened after any error."""

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
                               options=SESSION_OPTIONS, application_name="ledger-worker")
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

    def apply(self, posting: Posting, still_ours: Callable[[], bool]) -> str | None:
        """Record `posting` once: its status ('applied' or 'rejected'), or None if it was
        recorded already.

        `still_ours` is asked just before the commit; if it says no, the transaction is
        rolled back and LeaseLost is raised. A commit whose answer is lost raises
        psycopg.Error although it may have committed: retrying is safe, the posting is then
        found and nothing is applied twice.
        """
        if not self.connected:
            self.connect()
        conn = self._conn
        assert conn is not None
        try:
            with _deadline(conn, TRANSACTION_DEADLINE_SECONDS), conn.transaction():
                conn.execute(OPEN_ACCOUNT, (posting.account_id,))
                balance = conn.execute(LOCK_BALANCE, (posting.account_id,)).fetchone()[0]
                if conn.execute(FIND_POSTING, (posting.posting_id,)).fetchone() is not None:
                    status = None
                else:
                    overdraws = posting.amount_cents < 0 and balance + posting.amount_cents < 0
                    status = "rejected" if overdraws else "applied"
                    conn.execute(INSERT_POSTING, (posting.posting_id, posting.account_id,
                                                  posting.amount_cents, status))
                    if status == "applied":
                        conn.execute(ADD_TO_BALANCE, (posting.amount_cents, posting.account_id))
                if not still_ours():
                    raise LeaseLost()
        except psycopg.Error:
            self.close()
            raise
        return status
