"""The ledger in PostgreSQL: schema, idempotent recording, bounded waits."""

from __future__ import annotations

import logging
import os
import socket
import threading
from typing import Callable, TypeVar

import psycopg
from psycopg import pq

from . import settings as S
from .pacing import Pacer
from .postings import Posting

log = logging.getLogger("worker.ledger")

T = TypeVar("T")

# Serialises schema creation among workers that start at the same time.
SCHEMA_LOCK_KEY = 7_305_231_894_114_001

DDL = (
    """
    create table if not exists public.postings (
      posting_id text primary key,
      account_id text not null,
      amount_cents bigint not null,
      status text not null,
      seq bigint generated always as identity
    )
    """,
    """
    create table if not exists public.accounts (
      account_id text primary key,
      balance_cents bigint not null
    )
    """,
)

# Creates the account at balance 0 if needed and locks its row either way;
# RETURNING gives the latest committed balance (ON CONFLICT DO UPDATE waits
# for, and then acts on, the newest version of the row). Every transaction
# that records a posting of an account starts here, so they run one at a time
# per account and each sees what the previous one committed.
LOCK_ACCOUNT = """
    insert into public.accounts as a (account_id, balance_cents)
    values (%s, 0)
    on conflict (account_id) do update set balance_cents = a.balance_cents
    returning a.balance_cents
"""
POSTING_EXISTS = "select 1 from public.postings where posting_id = %s"
INSERT_POSTING = """
    insert into public.postings (posting_id, account_id, amount_cents, status)
    values (%s, %s, %s, %s)
"""
CREDIT_ACCOUNT = """
    update public.accounts set balance_cents = balance_cents + %s
    where account_id = %s
"""

# Server-side limits, so that a session whose client vanished behind a hanging
# network does not keep an account locked for long. No transaction of ours
# legitimately idles or waits this long.
SESSION_SETUP = """
    select set_config('statement_timeout', '10s', false),
           set_config('lock_timeout', '8s', false),
           set_config('idle_in_transaction_session_timeout', '10s', false)
"""

APPLIED = "applied"
REJECTED = "rejected"
DUPLICATE = "duplicate"


def _sever(conn: psycopg.Connection) -> None:
    """Shut the connection's socket down so that a blocked call returns.

    Runs on a timer thread. shutdown() acts on the socket itself, so it wakes
    up the thread waiting on it; that thread then gets an OperationalError.
    """
    try:
        fd = conn.pgconn.socket
    except Exception:
        return
    try:
        sock = socket.socket(fileno=os.dup(fd))
    except OSError:
        return
    try:
        sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass
    finally:
        sock.close()


class Ledger:
    """A small pool of connections; every call on one runs under a deadline."""

    def __init__(self, database_url: str):
        self._url = database_url
        self._slots = threading.BoundedSemaphore(S.DB_POOL_SIZE)
        self._idle: list[psycopg.Connection] = []
        self._idle_lock = threading.Lock()
        self._connect_lock = threading.Lock()
        # Connection attempts of this process, refused or not, are spaced by this.
        self._connect_pacer = Pacer(S.DB_CONNECT_BACKOFF_BASE, S.DB_CONNECT_BACKOFF_CAP)
        self._schema_ready = False

    # --- public operations ------------------------------------------------

    def is_recorded(self, posting_id: str) -> bool:
        def check(conn: psycopg.Connection) -> bool:
            return conn.execute(POSTING_EXISTS, (posting_id,)).fetchone() is not None

        return self._run(check, S.DB_CHECK_DEADLINE)

    def record(self, p: Posting) -> str:
        """Record ``p`` once: 'applied', 'rejected', or 'duplicate' if it already was."""

        def tx(conn: psycopg.Connection) -> str:
            with conn.transaction():
                balance = conn.execute(LOCK_ACCOUNT, (p.account_id,)).fetchone()[0]
                if conn.execute(POSTING_EXISTS, (p.posting_id,)).fetchone() is not None:
                    return DUPLICATE
                if p.amount_cents < 0 and balance + p.amount_cents < 0:
                    status = REJECTED
                else:
                    status = APPLIED
                conn.execute(INSERT_POSTING, (p.posting_id, p.account_id, p.amount_cents, status))
                if status == APPLIED:
                    conn.execute(CREDIT_ACCOUNT, (p.amount_cents, p.account_id))
                return status

        try:
            return self._run(tx, S.DB_RECORD_DEADLINE)
        except psycopg.errors.UniqueViolation:
            # Cannot happen while every writer takes the account lock first;
            # if it does, the posting is recorded.
            return DUPLICATE

    # --- pool ---------------------------------------------------------------

    def _run(self, fn: Callable[[psycopg.Connection], T], deadline: float) -> T:
        conn = self._acquire()
        healthy = False
        try:
            result = self._with_deadline(conn, fn, deadline)
            healthy = True
            return result
        finally:
            self._release(conn, healthy)

    @staticmethod
    def _with_deadline(conn: psycopg.Connection, fn: Callable[[psycopg.Connection], T], deadline: float) -> T:
        expired = threading.Event()

        def expire() -> None:
            expired.set()
            log.warning("database call exceeded %.0fs; cutting the connection", deadline)
            _sever(conn)

        timer = threading.Timer(deadline, expire)
        timer.daemon = True
        timer.start()
        try:
            result = fn(conn)
        finally:
            timer.cancel()
        if expired.is_set():
            # fn returned, but the connection was cut just after: do not reuse it.
            conn.close()
        return result

    def _acquire(self) -> psycopg.Connection:
        self._slots.acquire()
        try:
            with self._idle_lock:
                conn = self._idle.pop() if self._idle else None
            if conn is None:
                conn = self._open()
            return conn
        except BaseException:
            self._slots.release()
            raise

    def _release(self, conn: psycopg.Connection, healthy: bool) -> None:
        try:
            reusable = (
                healthy
                and not conn.closed
                and conn.info.transaction_status == pq.TransactionStatus.IDLE
            )
            if reusable:
                with self._idle_lock:
                    self._idle.append(conn)
            else:
                try:
                    conn.close()
                except Exception:
                    pass
        finally:
            self._slots.release()

    def _open(self) -> psycopg.Connection:
        with self._connect_lock:
            self._connect_pacer.wait()
            try:
                conn = psycopg.connect(
                    self._url,
                    autocommit=True,
                    prepare_threshold=None,
                    connect_timeout=S.DB_CONNECT_TIMEOUT,
                    keepalives=1,
                    keepalives_idle=5,
                    keepalives_interval=2,
                    keepalives_count=3,
                    application_name="fifo-ledger-worker",
                )
            except Exception:
                self._connect_pacer.failure()
                raise
            self._connect_pacer.success()
        try:
            self._with_deadline(conn, self._setup, S.DB_SETUP_DEADLINE)
        except BaseException:
            try:
                conn.close()
            except Exception:
                pass
            raise
        return conn

    def _setup(self, conn: psycopg.Connection) -> None:
        conn.execute(SESSION_SETUP)
        if self._schema_ready:
            return
        with conn.transaction():
            conn.execute("select pg_advisory_xact_lock(%s)", (SCHEMA_LOCK_KEY,))
            for statement in DDL:
                conn.execute(statement)
        self._schema_ready = True
        log.info("ledger schema ready")
