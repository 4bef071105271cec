"""Watches the database from the kit's side and records when each order row first appears."""

from __future__ import annotations

import threading

import psycopg
from psycopg import errors

from kit.workload.recorder import Recorder

POLL_SECONDS = 0.05


class Observer(threading.Thread):
    """Polls `orders` directly (not through the faulted proxy); records `recorded` ops."""

    def __init__(self, dsn: str, recorder: Recorder) -> None:
        super().__init__(name="observer", daemon=True)
        self.dsn, self.recorder = dsn, recorder
        self.seen: set[str] = set()
        self.stopping = threading.Event()
        self.error: Exception | None = None

    def poll(self, conn: psycopg.Connection) -> None:
        """Record every order row not seen before."""
        try:
            rows = conn.execute(
                "select order_id, customer_id, amount_cents from orders").fetchall()
        except (errors.UndefinedTable, errors.UndefinedColumn):
            return  # the workers have not created the table yet
        for order_id, customer_id, amount in rows:
            if order_id not in self.seen:
                self.seen.add(order_id)
                self.recorder.record("observer", "recorded", order_id=order_id,
                                     customer_id=customer_id, amount_cents=amount)

    def run(self) -> None:
        try:
            with psycopg.connect(self.dsn, autocommit=True) as conn:
                while not self.stopping.wait(POLL_SECONDS):
                    self.poll(conn)
                self.poll(conn)  # one last look, so the final rows are all recorded
        except Exception as exc:  # noqa: BLE001 - reported as a run error
            self.error = exc

    def stop(self) -> None:
        """Stop after one last poll."""
        self.stopping.set()
        if self.ident is not None:  # a Ctrl-C may come before it started
            self.join(timeout=10)
