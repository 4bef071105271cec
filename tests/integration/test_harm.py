"""A solution that harms the kit's own machinery is judged for it: the observer's database
session terminated by another session is recorded (kit/workload/harm.py) and the observer
watches on, instead of the run ending as the kit's `error`."""

from __future__ import annotations

import time
from collections.abc import Iterator

import psycopg
import pytest

from kit.checks import run_checks
from kit.checks.interference import KIT_UNHARMED
from kit.checks.result import worst
from kit.recorder import Recorder
from kit.run.sandbox import Sandbox
from kit.sandbox.postgres import PostgresCluster
from kit.workload.observer import Observer


@pytest.fixture(scope="module")
def postgres() -> Iterator[PostgresCluster]:
    with Sandbox(postgres=True) as sandbox:  # the cluster as runs have it
        yield sandbox.postgres


def _until(condition, timeout: float = 10.0) -> bool:  # noqa: ANN001
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return condition()


def test_a_terminated_observer_session_is_the_solutions_harm_and_watching_goes_on(
        postgres: PostgresCluster) -> None:
    dsn = postgres.create_database("harmed")
    with psycopg.connect(dsn, autocommit=True) as worker:
        worker.execute("create table orders (order_id text primary key)")
        worker.execute("insert into orders values ('o-1')")
        recorder = Recorder()
        observer = Observer(dsn, "orders", "order_id", recorder)
        observer.start()
        try:
            assert _until(lambda: "o-1" in observer.seen)
            # What a defective worker with the right to do so does to every other session.
            killed = worker.execute(
                "select pg_terminate_backend(pid) from pg_stat_activity where "
                "datname = 'harmed' and pid <> pg_backend_pid()").fetchall()
            assert killed and all(row[0] for row in killed)
            worker.execute("insert into orders values ('o-2')")
            assert _until(lambda: "o-2" in observer.seen), "the observer stopped watching"
        finally:
            observer.stop()
    assert observer.error is None, observer.error
    history = recorder.history(None)
    harms = history.of_kind("interference")
    assert harms and "pg_terminate_backend" in harms[0].value.cause
    result = run_checks(history, {KIT_UNHARMED: {}})[KIT_UNHARMED]
    assert result.verdict == "fail" and "observer's database session" in result.summary
    assert worst([result]) == "fail"


def test_a_server_that_is_gone_stays_the_kits_error(postgres: PostgresCluster) -> None:
    from kit.workload import harm

    error = psycopg.OperationalError("server closed the connection unexpectedly")
    assert harm.of_session(error, "postgresql://kit@127.0.0.1:1/none") is None
    dsn = postgres.dsn("harmed")
    assert harm.of_session(error, dsn) is not None  # it still serves: someone closed it
