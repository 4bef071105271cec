"""Least privilege for the data plane: what a workload's database login can and cannot do.

A real sandbox cluster and a database bound as kit.run.bind binds one (`workload_database`:
its own role, reached through a Toxiproxy listener). The red team's queries, each refused:
a shell through COPY ... FROM PROGRAM, the server's files, the kit's own sessions
terminated, roles made or raised, another run's database, another cluster without its
password, connections beyond the role's cap. And what the role must still do: create,
write and read its tables.
"""

from __future__ import annotations

import contextlib
import shutil
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from psycopg import errors

from kit.recorder import Recorder
from kit.run.sandbox import Sandbox
from kit.sandbox.postgres import KIT_READER, WORKLOAD_CONNECTION_LIMIT, Database, PostgresCluster
from kit.sandbox.toxiproxy import Proxy
from kit.workload.observer import Observer
from tests.integration.adversary import DATABASE_ESCAPES

# What the red team ran from a worker, logged in as the superuser; and what a role that owns
# its database could do to the kit's sessions (its settings apply to every session there).
REFUSED = {
    **DATABASE_ESCAPES,
    "alter-database-set": "do $$ begin execute format("
                          "'alter database %I set statement_timeout = 1', current_database());"
                          " end $$",
    "create-schema": "create schema postgres",
}


@pytest.fixture(scope="module")
def sandbox() -> Iterator[Sandbox]:
    with Sandbox() as sb:
        yield sb


@pytest.fixture(scope="module")
def bound(sandbox: Sandbox) -> Iterator[tuple[Database, Proxy]]:
    """A database and its role, behind a listener, as the bind stage makes them."""
    database = sandbox.postgres.workload_database()
    proxy = sandbox.toxiproxy.proxy("db-privilege", f"127.0.0.1:{sandbox.postgres.port}")
    yield database, proxy
    proxy.delete()


def _worker(bound: tuple[Database, Proxy], dbname: str | None = None) -> psycopg.Connection:
    database, proxy = bound
    url = database.url(proxy.port)
    if dbname:
        url = url.rsplit("/", 1)[0] + f"/{dbname}"
    return psycopg.connect(url, autocommit=True, connect_timeout=5)


def test_the_workload_role_creates_writes_and_reads_its_own_tables(
        sandbox: Sandbox, bound: tuple[Database, Proxy]) -> None:
    with _worker(bound) as conn:
        conn.execute("create table if not exists t (id int primary key, note text)")
        conn.execute("insert into t values (1, 'one') on conflict do nothing")
        assert conn.execute("select note from t where id = 1").fetchone() == ("one",)
        assert conn.execute("select rolsuper, rolcreaterole, rolcreatedb, rolconnlimit "
                            "from pg_roles where rolname = current_user").fetchone() == (
            False, False, False, WORKLOAD_CONNECTION_LIMIT)
    # The kit reads it as its own reader, over its private socket.
    with psycopg.connect(sandbox.postgres.reader_dsn(bound[0].name)) as kit:
        assert kit.execute("select note from public.t").fetchall() == [("one",)]


@pytest.mark.parametrize("statement", REFUSED.values(), ids=REFUSED.keys())
def test_the_red_teams_queries_are_refused(bound: tuple[Database, Proxy],
                                           statement: str) -> None:
    with _worker(bound) as conn:
        conn.execute("create table if not exists t (id int primary key, note text)")
        with pytest.raises(errors.InsufficientPrivilege):
            conn.execute(statement)


def test_the_kits_sessions_cannot_be_terminated(sandbox: Sandbox,
                                                bound: tuple[Database, Proxy]) -> None:
    with psycopg.connect(sandbox.postgres.reader_dsn(bound[0].name), autocommit=True) as reader, \
            psycopg.connect(sandbox.postgres.dsn(), autocommit=True) as admin, \
            _worker(bound) as conn:
        pids = {KIT_READER: reader.info.backend_pid, "postgres": admin.info.backend_pid}
        seen = dict(conn.execute("select usename, pid from pg_stat_activity "
                                 "where pid = any(%s)", (list(pids.values()),)).fetchall())
        assert seen == pids  # the workload sees them: it cannot stop them
        for pid in pids.values():
            with pytest.raises(errors.InsufficientPrivilege):
                conn.execute("select pg_terminate_backend(%s)", (pid,))
            with pytest.raises(errors.InsufficientPrivilege):
                conn.execute("select pg_cancel_backend(%s)", (pid,))
        assert reader.execute("select 1").fetchone() == (1,)
        assert admin.execute("select 1").fetchone() == (1,)


def test_another_runs_database_and_the_kits_are_closed_to_the_workload(
        sandbox: Sandbox, bound: tuple[Database, Proxy]) -> None:
    other = sandbox.postgres.workload_database()
    for dbname in (other.name, "postgres", "template1"):
        with pytest.raises(psycopg.OperationalError, match="CONNECT privilege"):
            _worker(bound, dbname)
    # Nor can the other run's role log in to this run's database.
    with pytest.raises(psycopg.OperationalError, match="CONNECT privilege"):
        _worker((other, bound[1]), bound[0].name)
    # The database names say nothing of the run (random, not the seed).
    assert other.name != bound[0].name and other.name.startswith("db_")


def test_no_login_over_tcp_without_its_password(sandbox: Sandbox,
                                                bound: tuple[Database, Proxy]) -> None:
    database, _ = bound
    port = sandbox.postgres.port
    for user in ("postgres", KIT_READER):
        with pytest.raises(psycopg.OperationalError, match="no password supplied"):
            psycopg.connect(f"postgresql://{user}@127.0.0.1:{port}/{database.name}",
                            connect_timeout=5)
    with pytest.raises(psycopg.OperationalError, match="password authentication failed"):
        psycopg.connect(f"postgresql://{database.role}:wrong@127.0.0.1:{port}/{database.name}",
                        connect_timeout=5)


@contextlib.contextmanager
def _another_cluster() -> Iterator[PostgresCluster]:
    """Another run's cluster on the same machine."""
    workdir = Path(tempfile.mkdtemp(prefix="kit-test-cluster-"))
    workdir.chmod(0o711)  # the servers' user reaches its directory
    cluster = PostgresCluster(workdir)
    try:
        cluster.wait_ready()
        yield cluster
    finally:
        cluster.stop()
        shutil.rmtree(workdir, ignore_errors=True)


def test_another_cluster_does_not_trust_this_runs_users(bound: tuple[Database, Proxy]) -> None:
    database, _ = bound
    with _another_cluster() as other:
        theirs = other.workload_database()
        for user, secret in (("postgres", ""), (KIT_READER, ""),
                             (database.role, f":{database.password}"),
                             (theirs.role, "")):
            with pytest.raises(psycopg.OperationalError,
                               match="no password supplied|password authentication failed"):
                psycopg.connect(f"postgresql://{user}{secret}@127.0.0.1:{other.port}/"
                                f"{theirs.name}", connect_timeout=5)
        with psycopg.connect(theirs.url(other.port)) as conn:  # with its password: in
            assert conn.execute("select current_user").fetchone() == (theirs.role,)


def test_connections_beyond_the_cap_are_refused_while_the_kit_still_connects(
        sandbox: Sandbox, bound: tuple[Database, Proxy]) -> None:
    with contextlib.ExitStack() as held:
        for _ in range(WORKLOAD_CONNECTION_LIMIT):
            held.enter_context(_worker(bound))
        with pytest.raises(psycopg.OperationalError, match="too many connections for role"):
            _worker(bound)
        with psycopg.connect(sandbox.postgres.reader_dsn(bound[0].name)) as kit:
            assert kit.execute("select count(*) from pg_stat_activity where usename = %s",
                               (bound[0].role,)).fetchone() == (WORKLOAD_CONNECTION_LIMIT,)
        with psycopg.connect(sandbox.postgres.dsn()) as admin:
            assert admin.execute("select 1").fetchone() == (1,)


def _observe(sandbox: Sandbox, bound: tuple[Database, Proxy]) -> tuple[Observer, float]:
    """Start and stop an observer of `effects` (its stop makes one last poll, always);
    how long the stop took."""
    observer = Observer(sandbox.postgres.reader_dsn(bound[0].name), "effects", "id",
                        Recorder())
    observer.start()
    began = time.monotonic()
    observer.stop()
    return observer, time.monotonic() - began


def test_the_observer_outlives_what_the_workload_does_to_its_own_table(
        sandbox: Sandbox, bound: tuple[Database, Proxy]) -> None:
    """A lock held on the effects table, or a view in its place whose function fails: the
    poll is skipped (the solution's table is the solution's business, judged by the
    checkers), the observer neither fails nor hangs; a table again, its rows are recorded."""
    with _worker(bound) as conn:
        conn.execute("create table effects (id text primary key)")
        conn.execute("insert into effects values ('k-1')")
        with conn.transaction():
            conn.execute("lock table effects in access exclusive mode")
            observer, took = _observe(sandbox, bound)
            assert not observer.is_alive() and observer.error is None and took < 5
        conn.execute("drop table effects")
        conn.execute("create function boom() returns setof text language plpgsql as "
                     "$$ begin raise exception 'the kit must not fail on this'; end $$")
        conn.execute("create view effects (id) as select * from boom()")
        observer, _ = _observe(sandbox, bound)
        assert observer.error is None and not observer.seen
        conn.execute("drop view effects")
        conn.execute("create table effects (id text primary key)")
        conn.execute("insert into effects values ('k-2')")
        observer, _ = _observe(sandbox, bound)
        assert observer.error is None and observer.seen == {"k-2"}
