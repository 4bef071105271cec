"""A disposable PostgreSQL cluster: initdb in the sandbox dir, own port, run unprivileged.

Least privilege (kit/sandbox/pgauth.py says how logins work): each workload gets a database
of its own and a role made for it, with a password, a connection limit and no privilege
beyond creating and using tables in that database's `public` schema. The database itself is
the kit's: its owner could `ALTER DATABASE ... SET` parameters (statement_timeout,
idle_session_timeout, DateStyle) that would apply to the kit's own sessions too. The kit
reads the workload's tables as `kit_reader` (pg_read_all_data, BYPASSRLS, not a superuser:
a function the workload plants in what the kit reads runs with the reader's rights only),
and administers as the superuser, both over the private Unix socket.
"""

from __future__ import annotations

import os
import pwd
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

import psycopg
from psycopg import sql

from kit import settings
from kit.errors import SandboxError, ToolchainError
from kit.sandbox import pgauth
from kit.sandbox.ports import free_port
from kit.sandbox.process import ManagedProcess
from kit.toolchain import postgres_bindir

READY_TIMEOUT = 30.0
SERVER_SETTINGS = {
    # A disposable cluster: durability settings only cost time here.
    "fsync": "off", "synchronous_commit": "off", "full_page_writes": "off",
    "listen_addresses": "127.0.0.1", "max_connections": "200",
    "superuser_reserved_connections": str(pgauth.RESERVED_FOR_KIT),
}
KIT_READER = "kit_reader"
# Each workload's role: enough for any plausible pool of a few workers, far below
# max_connections less the kit's reserved slots.
WORKLOAD_CONNECTION_LIMIT = 32
SETUP = (
    # The reader sees every table and is bound by no row policy, but can write nothing.
    f"create role {KIT_READER} login nosuperuser bypassrls",
    f"grant pg_read_all_data to {KIT_READER}",
    # PUBLIC may connect to (and make temp tables in) every database by default.
    "revoke all on database postgres from public",
    "revoke all on database template1 from public",
)


@dataclass(frozen=True)
class Database:
    """A database made for one workload, and the role it logs in as."""

    name: str
    role: str
    password: str

    def url(self, port: int) -> str:
        """The workload's libpq URL through `port` (its Toxiproxy listener)."""
        return f"postgresql://{self.role}:{self.password}@127.0.0.1:{port}/{self.name}"


def run_as() -> str | None:
    """The unprivileged user servers run as when the kit is root (None: the kit's own)."""
    # initdb and postgres refuse to run as root; the Debian package creates `postgres`.
    return "postgres" if os.geteuid() == 0 else None


def template(bindir: Path, user: str | None, flavour: str = "",
             initdb_args: tuple[str, ...] = ()) -> Path:
    """An initdb'd data directory cached per server version (and flavour: a set of extra
    initdb arguments), created once, atomically."""
    version = bindir.parent.name
    target = settings.cache_dir() / f"postgres-template{flavour}" / version
    if target.exists():
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    # Staged under the system temp dir: the unprivileged user cannot enter root's home.
    staging = Path(tempfile.mkdtemp(prefix=f"kit-pg-template-{version}-"))
    try:
        if user:
            entry = pwd.getpwnam(user)
            os.chown(staging, entry.pw_uid, entry.pw_gid)
        init = subprocess.run(
            [str(bindir / "initdb"), "-D", str(staging / "data"), "-U", "postgres",
             "--auth=trust", "-E", "UTF8", "--no-sync", "--no-instructions", *initdb_args],
            capture_output=True, text=True, user=user, cwd=staging, check=False)
        if init.returncode != 0:
            raise SandboxError(f"initdb failed (exit {init.returncode}):\n{init.stderr[-2000:]}")
        publish(staging / "data", target)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return target


def publish(built: Path, target: Path) -> None:
    """Move the directory `built` to `target` in one step, unless another process did first
    (then theirs is kept): a reader finds no `target` or a whole one."""
    # Moved next to the target first: a move across file systems copies file by file, and a
    # sandbox of another process that found `target` half-copied would start a broken cluster.
    near = Path(tempfile.mkdtemp(prefix=f".{target.name}-", dir=target.parent))
    try:
        shutil.move(built, near / "data")
        try:
            os.rename(near / "data", target)  # refused onto a non-empty directory
        except OSError:
            if not target.is_dir():
                raise
    finally:
        shutil.rmtree(near, ignore_errors=True)


class PostgresCluster:
    """A throwaway cluster: the kit's superuser `postgres` and reader over the private Unix
    socket, the workloads' roles over TCP with passwords."""

    def __init__(self, workdir: Path) -> None:
        bindir = postgres_bindir()
        if bindir is None:
            raise ToolchainError("PostgreSQL server binaries are missing: "
                                 "run `apt-get update && apt-get install -y postgresql`")
        user = run_as()
        self.root = workdir / "postgres"
        self.root.mkdir(mode=0o700)
        if user:
            entry = pwd.getpwnam(user)
            os.chown(self.root, entry.pw_uid, entry.pw_gid)
        data = self.root / "data"
        # Copying a cached initdb result takes a fifth of the time of a fresh initdb.
        copy = subprocess.run(["cp", "-a", str(template(bindir, user)), str(data)],
                              capture_output=True, text=True, check=False)
        if copy.returncode != 0:
            first, *more = copy.stderr.strip().splitlines() or ["(no output)"]
            raise SandboxError(f"copying the cluster template into {data} failed: {first}"
                               + (f" (and {len(more)} more lines)" if more else ""))
        pgauth.write_hba(data, user)
        self.port = free_port()
        argv = [str(bindir / "postgres"), "-D", str(data), "-p", str(self.port),
                "-k", str(self.root)]
        for key, value in SERVER_SETTINGS.items():
            argv += ["-c", f"{key}={value}"]
        self.process = ManagedProcess("postgres", argv, workdir / "postgres.log", user=user,
                                      cwd=self.root)

    def dsn(self, dbname: str = "postgres", user: str = "postgres") -> str:
        """The kit's libpq URL for `dbname` (the superuser by default), over the socket."""
        return pgauth.socket_url(self.root, self.port, user, dbname)

    def reader_dsn(self, dbname: str) -> str:
        """The kit's read-only URL for `dbname` (the observer's, the final state's)."""
        return self.dsn(dbname, KIT_READER)

    def wait_ready(self) -> None:
        """Block until the service answers (bounded), then make the kit's reader role;
        raises SandboxError with its log."""
        self.process.wait_ready(self._ready, READY_TIMEOUT, f"connections on {self.port}")
        self._admin(*(sql.SQL(statement) for statement in SETUP))

    def _ready(self) -> bool:
        with psycopg.connect(self.dsn(), connect_timeout=1) as conn:
            conn.execute("select 1")
        return True

    def _admin(self, *statements: sql.Composable, dbname: str = "postgres") -> None:
        with psycopg.connect(self.dsn(dbname), autocommit=True) as conn:
            for statement in statements:
                conn.execute(statement)

    def create_database(self, name: str) -> str:
        """Create an empty database only the kit may connect to; return the kit's URL."""
        db = sql.Identifier(name)
        self._admin(sql.SQL("create database {}").format(db),
                    sql.SQL("revoke all on database {} from public").format(db),
                    sql.SQL("grant connect on database {} to {}").format(
                        db, sql.Identifier(KIT_READER)))
        return self.dsn(name)

    def workload_database(self) -> Database:
        """A database for one workload and its role (random names: they say nothing of the
        run), which may connect to it alone and create and use tables in its `public`."""
        found = Database(pgauth.name("db"), pgauth.name("w"), pgauth.password())
        db, role = sql.Identifier(found.name), sql.Identifier(found.role)
        self._admin(sql.SQL(
            "create role {} login password {} nosuperuser nocreatedb nocreaterole "
            "noreplication nobypassrls connection limit {}").format(
                role, sql.Literal(found.password), sql.Literal(WORKLOAD_CONNECTION_LIMIT)))
        self.create_database(found.name)
        self._admin(sql.SQL("grant connect, temporary on database {} to {}").format(db, role))
        self._admin(sql.SQL("grant usage, create on schema public to {}").format(role),
                    dbname=found.name)
        return found

    def stop(self) -> None:
        """Stop the server and remove its data directory."""
        self.process.stop()
        shutil.rmtree(self.root, ignore_errors=True)
