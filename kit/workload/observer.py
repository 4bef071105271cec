"""Watches the database from the kit's side and records when each effect row first appears."""

from __future__ import annotations

import threading

import psycopg
from psycopg import errors, sql
from psycopg.rows import dict_row

from kit.workload.final import plain
from kit.workload.recorder import Recorder

POLL_SECONDS = 0.05


class Observer(threading.Thread):
    """Polls the effects table directly (not through the faulted proxy); records a
    `recorded` op (key and every column) for each key it sees for the first time."""

    def __init__(self, dsn: str, table: str, key: str, recorder: Recorder) -> None:
        super().__init__(name="observer", daemon=True)
        self.dsn, self.recorder, self.key = dsn, recorder, key
        self.query = sql.SQL("select * from {}").format(sql.Identifier(table))
        self.seen: set[str] = set()
        self.stopping = threading.Event()
        self.error: Exception | None = None

    def poll(self, conn: psycopg.Connection) -> None:
        """Record every key not seen before."""
        try:
            rows = conn.execute(self.query).fetchall()
        except errors.UndefinedTable:
            return  # the workers have not created the table yet
        for row in rows:
            key = row.get(self.key)
            if key is not None and str(key) not in self.seen:
                self.seen.add(str(key))
                self.recorder.record("observer", "recorded", key=str(key), fields=plain(row))

    def run(self) -> None:
        try:
            with psycopg.connect(self.dsn, autocommit=True, row_factory=dict_row) as conn:
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
