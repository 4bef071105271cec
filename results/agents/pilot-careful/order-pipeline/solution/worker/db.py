"""PostgreSQL access: one connection per worker, paced reconnects, client-side deadlines.

Recording an order is a single statement run in autocommit mode, so it is atomic on its
own: the order row and the balance increment are committed together or not at all, and
a duplicate (same order_id, from a re-delivery or a re-send) inserts nothing and adds
nothing. This is what makes "effects once" hold whatever is killed when.
"""

import logging
import os
import socket
import threading
import time
from contextlib import contextmanager

import psycopg

from . import config
from .backoff import Backoff
from .orders import Order

log = logging.getLogger("worker.db")

# Any constant; serialises schema creation between workers starting at the same time
# (concurrent CREATE TABLE IF NOT EXISTS can fail on the catalog's unique indexes).
SCHEMA_LOCK_KEY = 0x6F726465  # "orde"

# Sent as one simple-protocol query: PostgreSQL runs it as a single implicit transaction,
# so the advisory transaction lock is held until both tables exist.
SCHEMA_SQL = """
select pg_advisory_xact_lock(%d);
create table if not exists orders (order_id text primary key, customer_id text, amount_cents bigint);
create table if not exists customer_balances (customer_id text primary key, balance_cents bigint);
""" % SCHEMA_LOCK_KEY

RECORD_SQL = """
with new_order as (
    insert into orders (order_id, customer_id, amount_cents)
    values (%(order_id)s, %(customer_id)s, %(amount_cents)s)
    on conflict (order_id) do nothing
    returning customer_id, amount_cents
)
insert into customer_balances (customer_id, balance_cents)
select customer_id, amount_cents from new_order
on conflict (customer_id) do update
    set balance_cents = customer_balances.balance_cents + excluded.balance_cents
"""

SESSION_SETTINGS = (
    "set statement_timeout = '%ds'" % config.DB_OP_TIMEOUT,
    "set lock_timeout = '10s'",
    # The server drops sessions a vanished client left behind.
    "set idle_in_transaction_session_timeout = '30s'",
    "set idle_session_timeout = '300s'",  # PostgreSQL 14+
)


class Unrecordable(Exception):
    """The database rejects this order's data; retrying cannot help."""


class Database:
    def __init__(self, url, stop):
        self.url = url
        self.stop = stop
        self.conn = None
        self.schema_ready = False
        self.last_ok = 0.0
        self.backoff = Backoff(config.RETRY_BASE, config.RETRY_CAP)

    # -------------------------------------------------------------- connection

    def close(self):
        conn, self.conn = self.conn, None
        if conn is not None:
            try:
                conn.close()
            except Exception:
                pass

    @contextmanager
    def _deadline(self, conn, seconds):
        """Abort the connection's socket if the block takes longer than `seconds`.

        A hanging server (or network) would otherwise block a query forever: keepalives
        do not help when a proxy in the path keeps acknowledging. Shutting the socket down
        wakes psycopg, which raises OperationalError; the caller then discards the
        connection. The lock guarantees the fd is not shut down after the block is over.
        """
        lock = threading.Lock()
        armed = [True]
        fd = conn.fileno()

        def fire():
            with lock:
                if not armed[0]:
                    return
                log.warning("database call exceeded %.0f s; aborting the connection", seconds)
                try:
                    sock = socket.socket(fileno=os.dup(fd))
                    try:
                        sock.shutdown(socket.SHUT_RDWR)
                    finally:
                        sock.close()
                except OSError:
                    pass

        timer = threading.Timer(seconds, fire)
        timer.daemon = True
        timer.start()
        try:
            yield
        finally:
            with lock:
                armed[0] = False
            timer.cancel()

    def _connect(self):
        conn = psycopg.connect(
            self.url,
            autocommit=True,
            prepare_threshold=None,  # safe behind transaction-pooling proxies
            connect_timeout=config.DB_CONNECT_TIMEOUT,
            keepalives=1,
            keepalives_idle=5,
            keepalives_interval=2,
            keepalives_count=3,
            application_name="order-worker",
        )
        try:
            with self._deadline(conn, config.DB_OP_TIMEOUT):
                for statement in SESSION_SETTINGS:
                    # Best effort: a setting the server does not know must not keep us
                    # from working; a broken connection must.
                    try:
                        conn.execute(statement)
                    except psycopg.OperationalError:
                        raise
                    except psycopg.Error as exc:
                        log.info("ignoring %r: %s", statement, _one_line(exc))
        except BaseException:
            try:
                conn.close()
            except Exception:
                pass
            raise
        return conn

    def ready(self):
        """One attempt to have a healthy connection with the schema in place.

        Returns True when ready. On failure, waits a paced back-off (or until stop) and
        returns False; the caller loops.
        """
        try:
            if self.conn is not None and self.conn.closed:
                self.close()
            if self.conn is None:
                self.conn = self._connect()
                self.last_ok = time.monotonic()
            if not self.schema_ready:
                with self._deadline(self.conn, config.DB_OP_TIMEOUT):
                    self.conn.execute(SCHEMA_SQL)
                self.schema_ready = True
                log.info("database ready")
            elif time.monotonic() - self.last_ok > config.DB_PING_AFTER_IDLE:
                with self._deadline(self.conn, config.DB_OP_TIMEOUT):
                    self.conn.execute("select 1")
            self.last_ok = time.monotonic()
            self.backoff.reset()
            return True
        except Exception as exc:
            log.warning("database not available: %s", _one_line(exc))
            self.close()
            self.backoff.sleep(self.stop)
            return False

    # -------------------------------------------------------------- recording

    def record(self, order: Order) -> bool:
        """Record the order and add it to the balance, once. Returns True if this call
        recorded it, False if it was already recorded. Raises Unrecordable for data the
        database refuses, and any other exception for a failure worth retrying (the
        connection is then discarded)."""
        conn = self.conn
        if conn is None:
            raise psycopg.OperationalError("not connected")
        try:
            with self._deadline(conn, config.DB_OP_TIMEOUT):
                cur = conn.execute(RECORD_SQL, order._asdict())
            self.last_ok = time.monotonic()
            self.backoff.reset()
            return cur.rowcount == 1
        except psycopg.DataError as exc:
            raise Unrecordable(_one_line(exc)) from exc
        except psycopg.errors.UndefinedTable:
            self.schema_ready = False
            raise
        except Exception:
            self.close()
            raise


def _one_line(exc):
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0] if text else ''}"
