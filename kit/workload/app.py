"""The kit's application for drills: it writes acknowledged transactions, one at a time, to
the database it finds through the contract's endpoint secret, and records each write as
it saw it (Jepsen's client: invoke, then ok, fail or info).

Each planned body (the scenario's workload.py) is one transaction: a ledger row and its
account's running totals, so that a transaction applied in part shows (kit.checks
.consistency). The application reads the secret (JSON: host, port, username, dbname) when
it starts, when it resumes after maintenance, and whenever a connection fails, at most
every READ_SECONDS; it is what every instance of a real service does on a connection error.
It logs in as the secret's username with the password `password` gives for the secret's
value: the kit's password of that user on the endpoint's server (so the secret never holds
one and nothing else can log in as it), or the secret's own `password` when the secret holds
the credentials (a drill that rotates them); None for an endpoint the data plane does not
serve, which then gets none. With `connection_writes`, a connection is closed after that
many writes, as a pool's maximum connection lifetime does: the next write logs in again
with what the secret then holds. With a standby endpoint secret (another Region's), each
read takes both and uses the one with the higher `epoch` (`by_epoch`).
"""

from __future__ import annotations

import contextlib
import json
import threading
import time
from collections.abc import Callable
from typing import Any

import psycopg

from kit.recorder import Recorder
from kit.workload.api import Described, Send

READ_SECONDS = 0.5
RETRY_SECONDS = 0.1
CONNECT_TIMEOUT = 2
PAUSE_TIMEOUT = 10.0
SCHEMA = (
    "create table if not exists ledger (txn_id text primary key, account text not null, "
    "amount bigint not null)",
    "create table if not exists accounts (account text primary key, balance bigint not null, "
    "txns integer not null)",
)
INSERT = "insert into ledger (txn_id, account, amount) values (%s, %s, %s)"
TOTALS = ("insert into accounts (account, balance, txns) values (%s, %s, 1) on conflict "
          "(account) do update set balance = accounts.balance + excluded.balance, "
          "txns = accounts.txns + 1")


class AppWriter(threading.Thread):
    """Writes the plan's transactions until stopped (or the plan runs out)."""

    def __init__(self, recorder: Recorder, plan: list[Send], describe: Callable[[str], Described],
                 endpoint: Callable[[], dict[str, Any]], interval: float,
                 password: Callable[[dict[str, Any]], str | None] = lambda _: None,
                 connection_writes: int | None = None) -> None:
        super().__init__(name="app", daemon=True)
        self.password, self.connection_writes = password, connection_writes
        self.attempts = 0  # logins tried (a rotation waits for the next one between steps)
        self._writes_on_conn = 0
        self.recorder, self.plan, self.describe = recorder, plan, describe
        self.read_endpoint, self.interval = endpoint, interval
        self.stopping = threading.Event()
        self.error: Exception | None = None
        self._running = threading.Event()
        self._running.set()
        self.idle = threading.Event()  # set while paused between transactions
        self._conn: psycopg.Connection | None = None
        self._endpoint = ""
        self._last_read = 0.0

    def pause(self) -> bool:
        """Stop writing after the transaction in flight (maintenance); True once idle."""
        self._running.clear()
        return self.idle.wait(PAUSE_TIMEOUT)

    def resume(self) -> None:
        """Write again, reading the endpoint afresh (the maintenance is over); nothing when
        it is not paused."""
        if not self.paused:
            return
        self._drop()
        self._last_read = 0.0
        self.idle.clear()
        self._running.set()

    @property
    def paused(self) -> bool:
        return not self._running.is_set()

    def stop(self) -> None:
        """Stop after the transaction in flight."""
        self.stopping.set()
        self._running.set()
        if self.ident is not None:
            self.join(timeout=30)
        self._drop()

    def run(self) -> None:
        try:
            index = 0
            while index < len(self.plan) and not self.stopping.is_set():
                if not self._running.is_set():
                    self.idle.set()
                    self._running.wait()
                    continue
                if self._connection() is None:
                    self.stopping.wait(RETRY_SECONDS)
                    continue
                self._write(self.plan[index].body)
                index += 1
                self.stopping.wait(self.interval)
        except Exception as exc:  # noqa: BLE001 - reported as a run error
            self.error = exc
        finally:
            self.idle.set()

    def _connection(self) -> psycopg.Connection | None:
        """The open connection, or a new one to the endpoint the secret names (None: none
        could be made now)."""
        if self._conn is not None and not self._conn.closed:
            return self._conn
        if time.monotonic() - self._last_read < READ_SECONDS:
            return None
        self._last_read = time.monotonic()
        self.attempts += 1
        try:
            found = self.read_endpoint()
            self._endpoint = f"{found['host']}:{found['port']}"
            host, port, user = str(found["host"]), int(found["port"]), str(found["username"])
            conn = psycopg.connect(host=host, port=port, user=user,
                                   password=self.password(found),
                                   dbname=str(found["dbname"]),
                                   connect_timeout=CONNECT_TIMEOUT, autocommit=True,
                                   options="-c statement_timeout=5000")
            for statement in SCHEMA:
                conn.execute(statement)  # type: ignore[arg-type]
        except Exception as exc:  # noqa: BLE001 - unreadable secret, unreachable database...
            # ...: try again later, and say why (the evidence of workload.app_writes).
            self.recorder.record("app", "connect", type="fail", endpoint=self._endpoint,
                                 error=f"{type(exc).__name__}: {exc}".strip()[:300])
            return None
        self._conn, self._writes_on_conn = conn, 0
        return conn

    def _write(self, body: str) -> None:
        described = self.describe(body)
        key, fields = described.key or "", dict(described.fields)
        self.recorder.record("app", "write", type="invoke", key=key, fields=fields,
                             endpoint=self._endpoint)
        conn = self._conn
        assert conn is not None
        committing = False
        try:
            conn.execute("begin")
            conn.execute(INSERT, (key, fields["account"], fields["amount"]))
            conn.execute(TOTALS, (fields["account"], fields["amount"]))
            committing = True
            conn.execute("commit")
        except psycopg.Error as exc:
            # Before COMMIT was sent nothing is committed; while it was in flight, we
            # cannot know (the connection broke before the answer).
            self.recorder.record("app", "write", type="info" if committing else "fail",
                                 key=key, fields=fields, endpoint=self._endpoint,
                                 error=f"{type(exc).__name__}: {exc}".strip()[:300])
            self._drop()
            return
        self.recorder.record("app", "write", key=key, fields=fields, endpoint=self._endpoint)
        self._writes_on_conn += 1
        if self.connection_writes and self._writes_on_conn >= self.connection_writes:
            self._drop()  # its lifetime is over: the next write logs in again
            self._last_read = 0.0

    def _drop(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            with contextlib.suppress(Exception):  # a broken connection is closed either way
                conn.close()


def endpoint_reader(client: Any, secret_id: str) -> Callable[[], dict[str, Any]]:
    """Read the endpoint JSON from a Secrets Manager secret (the application's role)."""
    def read() -> dict[str, Any]:
        value = client.get_secret_value(SecretId=secret_id)["SecretString"]
        found = json.loads(value)
        if not isinstance(found, dict):
            raise ValueError("the endpoint secret is not a JSON object")
        return found

    return read


Reader = Callable[[], dict[str, Any]]


def by_epoch(endpoint: Reader, standby: Reader | None) -> Reader:
    """Read both secrets and use the one whose `epoch` (an integer; absent or not one: 0)
    is higher: the standby's only when it is strictly higher, or when the endpoint secret
    cannot be read (its Region is lost); the endpoint secret's when the standby cannot be
    read. A runbook that moves the application raises the epoch, so an old value that
    becomes readable again (its Region back) does not move it back."""
    if standby is None:
        return endpoint

    def read() -> dict[str, Any]:
        try:
            first = endpoint()
        except Exception:  # noqa: BLE001 - unreachable or unreadable: the standby decides
            return standby()
        try:
            second = standby()
        except Exception:  # noqa: BLE001 - the standby cannot outrank what was read
            return first
        return second if epoch(second) > epoch(first) else first

    return read


def epoch(value: dict[str, Any]) -> int:
    """An endpoint value's `epoch` (0 when absent or not an integer)."""
    found = value.get("epoch", 0)
    return found if isinstance(found, int) and not isinstance(found, bool) else 0
