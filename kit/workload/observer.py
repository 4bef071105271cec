"""Watches the effects from the kit's side and records when each one first appears.

The effects are a table of a database (`Observer`, read directly, not through the faulted
proxy), the JSON objects of a bucket (`BucketObserver`) or the items of a DynamoDB table
(`ItemObserver`), the last two read with the kit's admin client, not through the gateway.
Each records a `recorded` op (key and fields) for each key it sees for the first time.
"""

from __future__ import annotations

import functools
import threading
from typing import Any

import psycopg
from psycopg import errors, sql
from psycopg.rows import dict_row

from kit.recorder import Recorder
from kit.workload import harm
from kit.workload.final import items, object_row, plain

POLL_SECONDS = 0.05
FRESH_SECONDS = 2.0  # how long `fresh` waits for its look (each poll is bounded below)
RECONNECTS = 20  # sessions the solution may take from the observer before it gives up
# Bounds on each poll, so that a lock or a slow view of the workload's cannot stall it.
SESSION_OPTIONS = "-c lock_timeout=1000 -c statement_timeout=5000"
KIND = ("select c.relkind from pg_catalog.pg_class c join pg_catalog.pg_namespace n "
        "on n.oid = c.relnamespace where n.nspname = 'public' and c.relname = %s")
TABLE_KINDS = ("r", "p")  # a table, a partitioned table


class _Watcher(threading.Thread):
    """Polls until stopped, once more at the end; records each key the first time."""

    def __init__(self, key: str, recorder: Recorder) -> None:
        super().__init__(name="observer", daemon=True)
        self.recorder, self.key = recorder, key
        self.seen: set[str] = set()
        self.stopping = threading.Event()
        self.error: Exception | None = None
        self._asked = threading.Event()  # a look is wanted now: `fresh`, or the stop
        self._looks = threading.Condition()
        self._begun = self._done = 0  # looks begun; the number of the last one done

    def _saw(self, row: dict[str, Any]) -> None:
        key = row.get(self.key)
        if key is not None and str(key) not in self.seen:
            self.seen.add(str(key))
            self.recorder.record("observer", "recorded", key=str(key), fields=plain(row))

    def watch(self, poll: Any) -> None:
        """Call `poll` every POLL_SECONDS (at once when `fresh` asks) until stopped, and
        one last time."""
        while not self.stopping.is_set():
            self._look(poll)
            self._asked.wait(POLL_SECONDS)
            self._asked.clear()
        self._look(poll)  # one last look, so the final effects are all recorded

    def _look(self, poll: Any) -> None:
        with self._looks:
            self._begun += 1
            number = self._begun
        try:
            poll()
        finally:
            with self._looks:
                self._done = number
                self._looks.notify_all()

    def fresh(self, timeout: float = FRESH_SECONDS) -> bool:
        """Whether a look begun after this call finished within `timeout`: every effect
        there was when it is called is then recorded. Why: a fault that acts on what is
        not recorded yet (worker_crash) must not take a poll's lag for a worker's."""
        with self._looks:
            wanted = self._begun + 1
            self._asked.set()
            return self._looks.wait_for(lambda: self._done >= wanted, timeout)

    def stop(self) -> None:
        """Stop after one last poll."""
        self.stopping.set()
        self._asked.set()
        if self.ident is not None:  # a Ctrl-C may come before it started
            self.join(timeout=10)


class Observer(_Watcher):
    """Polls the effects table of a database, as the kit's reader.

    The connection is made before the workers start (they cannot crowd it out later), and
    each poll reads the table only while it is a table: it takes a share lock first (a table
    is not turned into a view under it), then checks what the name is. A view or a lock the
    workload holds costs that poll, never the observer: what the workload does to its own
    tables is its own effects, judged by the checkers, not the kit's failure.
    """

    def __init__(self, dsn: str, table: str, key: str, recorder: Recorder) -> None:
        super().__init__(key, recorder)
        self.dsn, self.table = dsn, table
        self.relation = sql.Identifier("public", table)
        self.conn: psycopg.Connection | None = None

    def poll(self, conn: psycopg.Connection) -> None:
        """Record every key not seen before."""
        try:
            with conn.transaction():
                conn.execute(sql.SQL("lock table {} in access share mode").format(self.relation))
                kind = conn.execute(KIND, (self.table,)).fetchone()
                if kind is None or kind["relkind"] not in TABLE_KINDS:
                    return
                rows = conn.execute(sql.SQL("select * from {}").format(self.relation)).fetchall()
        except (errors.UndefinedTable, errors.LockNotAvailable, errors.QueryCanceled,
                errors.WrongObjectType):
            return  # not created yet, or held or disguised by the workload: look again later
        for row in rows:
            self._saw(row)

    def _connect(self) -> psycopg.Connection:
        return psycopg.connect(self.dsn, autocommit=True, row_factory=dict_row,
                               connect_timeout=5, options=SESSION_OPTIONS)

    def start(self) -> None:
        """Connect, then poll in the thread."""
        self.conn = self._connect()
        super().start()

    def run(self) -> None:
        try:
            self._observe()
        except Exception as exc:  # noqa: BLE001 - reported as a run error
            self.error = exc

    def _observe(self) -> None:
        """Watch through one session; when the solution harms it (kit/workload/harm.py),
        record that as an `interference` op and watch on through a new one (bounded)."""
        for _ in range(RECONNECTS + 1):
            try:
                conn, self.conn = self.conn or self._connect(), None
                with conn:
                    self.watch(functools.partial(self.poll, conn))
                    return
            except psycopg.Error as exc:
                cause = harm.of_session(exc, self.dsn)
                if cause is None:
                    raise  # the kit's database broke: the kit's error
                self.recorder.record("observer", "interference", target="the observer's "
                                     "database session", cause=cause)
                if self.stopping.is_set():
                    return
        # Harmed again and again: stop watching; the run is judged on the harm alone.


class BucketObserver(_Watcher):
    """Polls the objects of a bucket under a prefix; each object is read once."""

    def __init__(self, s3: Any, bucket: str, prefix: str, key: str,
                 recorder: Recorder) -> None:
        super().__init__(key, recorder)
        self.s3, self.bucket, self.prefix = s3, bucket, prefix
        self.read: set[str] = set()  # object names already read

    def poll(self) -> None:
        """Read every object not read before; record the keys they hold."""
        pages = self.s3.get_paginator("list_objects_v2").paginate(Bucket=self.bucket,
                                                                  Prefix=self.prefix)
        for page in pages:
            for item in page.get("Contents", []):
                if item["Key"] not in self.read:
                    self.read.add(item["Key"])
                    self._saw(object_row(self.s3, self.bucket, item["Key"]))

    def run(self) -> None:
        try:
            self.watch(self.poll)
        except Exception as exc:  # noqa: BLE001 - reported as a run error
            self.error = exc


class ItemObserver(_Watcher):
    """Polls the items of a DynamoDB table (a consistent scan each time)."""

    def __init__(self, dynamodb: Any, table: str, key: str, recorder: Recorder) -> None:
        super().__init__(key, recorder)
        self.dynamodb, self.table = dynamodb, table

    def poll(self) -> None:
        """Record the keys of the items not seen before."""
        for row in items(self.dynamodb, self.table):
            self._saw(row)

    def run(self) -> None:
        try:
            self.watch(self.poll)
        except Exception as exc:  # noqa: BLE001 - reported as a run error
            self.error = exc
