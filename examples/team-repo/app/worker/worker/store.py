"""The fulfilment database: one row per order, and each customer's running total."""

from __future__ import annotations

import psycopg

from worker.events import OrderEvent

SCHEMA = """
CREATE TABLE IF NOT EXISTS fulfilments (
    order_id     text PRIMARY KEY,
    event_type   text NOT NULL,
    customer_id  text NOT NULL,
    amount_cents bigint NOT NULL CHECK (amount_cents > 0),
    currency     char(3) NOT NULL,
    recorded_at  timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE IF NOT EXISTS customer_totals (
    customer_id text PRIMARY KEY,
    total_cents bigint NOT NULL,
    orders      integer NOT NULL
);
"""

SCHEMA_LOCK = 0x0F_0F11  # any constant of ours: the advisory lock guarding SCHEMA

INSERT_ORDER = """
INSERT INTO fulfilments (order_id, event_type, customer_id, amount_cents, currency)
VALUES (%s, %s, %s, %s, %s)
ON CONFLICT (order_id) DO NOTHING
"""

ADD_TO_TOTAL = """
INSERT INTO customer_totals (customer_id, total_cents, orders) VALUES (%s, %s, 1)
ON CONFLICT (customer_id) DO UPDATE
SET total_cents = customer_totals.total_cents + EXCLUDED.total_cents,
    orders = customer_totals.orders + 1
"""


def connect(url: str) -> psycopg.Connection:
    """A connection to the fulfilment database, its tables created if missing."""
    # Autocommit: each `with conn.transaction()` block is one transaction, committed at
    # its end, and nothing is left open between messages.
    conn = psycopg.connect(url, connect_timeout=5, autocommit=True)
    with conn.transaction():
        # Tasks start together: concurrent CREATE TABLE IF NOT EXISTS can still collide in
        # the catalog, so the first task creates the tables while the others wait.
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK,))
        conn.execute(SCHEMA)
    return conn


def record(conn: psycopg.Connection, event: OrderEvent) -> bool:
    """Record the order once, in one transaction; False if an earlier delivery did."""
    with conn.transaction():
        inserted = conn.execute(INSERT_ORDER, (event.order_id, event.event_type,
                                               event.customer_id, event.amount_cents,
                                               event.currency)).rowcount == 1
        if inserted:
            conn.execute(ADD_TO_TOTAL, (event.customer_id, event.amount_cents))
    return inserted
