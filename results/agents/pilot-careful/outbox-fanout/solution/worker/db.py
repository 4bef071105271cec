"""PostgreSQL access: one connection per Database object, reopened on demand.

Every statement runs in autocommit mode and is a transaction on its own (the
recording statement writes the order and its outbox row at once), so a
connection lost mid-way never leaves a half-written order behind, and retrying
a statement is always safe.

Hangs: libpq has no client-side read timeout, and a server (or a network path)
that stops answering would block a thread for ever. Each statement is armed
with a watchdog that shuts the socket down when it has not returned in time;
libpq then sees the connection closed and psycopg raises OperationalError.
Connection attempts are bounded by libpq's connect_timeout.
"""

import logging
import os
import socket
import threading
import time

import psycopg

from . import settings

log = logging.getLogger("worker.db")


class DbUnavailable(Exception):
    """The database could not be reached now; retry later (the gate paces it)."""


SCHEMA = """
select pg_advisory_xact_lock(7301, 1);
create table if not exists orders (order_id text primary key, customer_id text,
                                   amount_cents bigint, status text);
create table if not exists order_outbox (
    seq          bigint generated always as identity,
    order_id     text primary key,
    event_id     text not null unique,
    event_type   text not null,
    body         text not null,
    created_at   timestamptz not null default now(),
    published_at timestamptz
);
create index if not exists order_outbox_pending on order_outbox (seq)
    where published_at is null;
create table if not exists worker_lease (
    worker_id    text primary key,
    lock_key     bigint not null,
    heartbeat_at timestamptz not null default now()
);
create table if not exists worker_inflight (
    worker_id      text not null,
    token          bigint not null,
    receipt_handle text not null,
    received_at    timestamptz not null default now(),
    primary key (worker_id, token)
);
"""

# Records the order if it is new and, in the same statement (one transaction),
# its event in the outbox, built from the row as recorded. A duplicate of an
# already recorded order changes nothing (its outbox row already exists; the
# second branch only repairs an order row that somehow has no outbox row).
RECORD = """
with ins as (
    insert into orders (order_id, customer_id, amount_cents, status)
    values (%(order_id)s, %(customer_id)s, %(amount_cents)s, %(status)s)
    on conflict (order_id) do nothing
    returning order_id, customer_id, amount_cents, status
), src as (
    select order_id, customer_id, amount_cents, status from ins
    union all
    select o.order_id, o.customer_id, o.amount_cents, o.status
      from orders o
     where o.order_id = %(order_id)s and not exists (select 1 from ins)
)
insert into order_outbox (order_id, event_id, event_type, body)
select order_id, %(event_id)s, 'order.' || status,
       json_build_object('event_id', %(event_id)s::text,
                         'event_type', 'order.' || status,
                         'order_id', order_id,
                         'customer_id', customer_id,
                         'amount_cents', amount_cents,
                         'status', status)::text
  from src
on conflict do nothing
"""

SESSION_SETUP = (
    "set statement_timeout = {st}; "
    "set lock_timeout = {st}; "
    "set idle_in_transaction_session_timeout = 60000"
).format(st=settings.DB_STATEMENT_TIMEOUT_MS)


class _Watchdog:
    """Shuts the connection's socket down if the guarded block takes too long."""

    def __init__(self, conn, timeout):
        self._conn = conn
        self._lock = threading.Lock()
        self._done = False
        self._timer = threading.Timer(timeout, self._fire)
        self._timer.daemon = True

    def _fire(self):
        with self._lock:
            if self._done:
                return
            try:
                fd = self._conn.pgconn.socket
                s = socket.socket(fileno=os.dup(fd))
                try:
                    s.shutdown(socket.SHUT_RDWR)
                finally:
                    s.close()
                log.warning("database statement hung; connection shut down")
            except Exception:  # the connection may already be gone
                pass

    def __enter__(self):
        self._timer.start()
        return self

    def __exit__(self, *exc):
        with self._lock:
            self._done = True
        self._timer.cancel()
        return False


class Database:
    def __init__(self, url, gate, name):
        self.url = url
        self.gate = gate
        self.name = name
        self._conn = None
        self._lock = threading.RLock()
        self.connected_at = None     # monotonic time of the current connection
        self.generation = 0          # bumps on every new connection

    # -- connection ----------------------------------------------------------

    @property
    def up(self):
        c = self._conn
        return c is not None and not c.closed and not getattr(c, "broken", False)

    def _open(self):
        if not self.gate.attempt():
            raise DbUnavailable("backing off")
        try:
            conn = psycopg.connect(
                self.url,
                autocommit=True,
                prepare_threshold=None,
                connect_timeout=settings.DB_CONNECT_TIMEOUT,
                application_name="orders-worker-" + self.name,
                keepalives=1, keepalives_idle=10, keepalives_interval=3, keepalives_count=3,
            )
        except Exception as e:  # refused, timed out, too many connections, auth...
            self.gate.failure()
            raise DbUnavailable("connect failed: %s" % _short(e)) from e
        try:
            with _Watchdog(conn, settings.DB_OP_TIMEOUT):
                conn.execute(SESSION_SETUP)
        except Exception as e:
            _close_quietly(conn)
            self.gate.failure()
            raise DbUnavailable("session setup failed: %s" % _short(e)) from e
        self.gate.success()
        self._conn = conn
        self.connected_at = time.monotonic()
        self.generation += 1
        log.info("%s: connected to database", self.name)
        return conn

    def drop(self):
        with self._lock:
            if self._conn is not None:
                _close_quietly(self._conn)
            self._conn = None
            self.connected_at = None

    def _ensure(self):
        if self.up:
            return self._conn
        if self._conn is not None:
            self.drop()
        return self._open()

    def connect(self):
        """Make sure the connection is open (raises DbUnavailable)."""
        with self._lock:
            self._ensure()

    # -- statements ----------------------------------------------------------

    def execute(self, sql, params=None, fetch=False, timeout=settings.DB_OP_TIMEOUT,
                reconnect=True):
        """Run one statement. Connection trouble -> DbUnavailable (connection
        dropped); other psycopg errors (data errors, ...) propagate with the
        connection left usable. reconnect=False: fail at once rather than open
        a connection (shutdown has no time for a connect timeout)."""
        if not self._lock.acquire(timeout=timeout):
            raise DbUnavailable("connection busy")
        try:
            if not reconnect and not self.up:
                raise DbUnavailable("not connected")
            conn = self._ensure()
            try:
                with _Watchdog(conn, timeout):
                    cur = conn.execute(sql, params)
                    if fetch:
                        return cur.fetchall()
                    return cur.rowcount
            except (psycopg.OperationalError, psycopg.InterfaceError) as e:
                self.drop()
                raise DbUnavailable(_short(e)) from e
        finally:
            self._lock.release()

    def close(self):
        self.drop()


def _close_quietly(conn):
    try:
        conn.close()
    except Exception:
        pass


def _short(e):
    text = str(e).strip().splitlines()
    return "%s: %s" % (type(e).__name__, text[0] if text else "")
