"""A disposable PostgreSQL cluster: initdb in the sandbox dir, own port, run unprivileged."""

from __future__ import annotations

import os
import pwd
import shutil
import subprocess
import tempfile
from pathlib import Path

import psycopg

from kit import settings
from kit.deploy.toolchain import postgres_bindir
from kit.errors import SandboxError, ToolchainError
from kit.sandbox.ports import free_port
from kit.sandbox.process import ManagedProcess

READY_TIMEOUT = 30.0
SERVER_SETTINGS = {
    # A disposable cluster: durability settings only cost time here.
    "fsync": "off", "synchronous_commit": "off", "full_page_writes": "off",
    "listen_addresses": "127.0.0.1", "max_connections": "200",
}


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
    """A throwaway cluster with a superuser `postgres` (trust auth on loopback only)."""

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
        self.port = free_port()
        argv = [str(bindir / "postgres"), "-D", str(data), "-p", str(self.port),
                "-k", str(self.root)]
        for key, value in SERVER_SETTINGS.items():
            argv += ["-c", f"{key}={value}"]
        self.process = ManagedProcess("postgres", argv, workdir / "postgres.log", user=user,
                                      cwd=self.root)

    def dsn(self, dbname: str = "postgres", port: int | None = None) -> str:
        """A libpq URL for `dbname`, directly or through a proxy port."""
        return f"postgresql://postgres@127.0.0.1:{port or self.port}/{dbname}"

    def wait_ready(self) -> None:
        """Block until the service answers (bounded); raises SandboxError with its log."""
        self.process.wait_ready(self._ready, READY_TIMEOUT, f"connections on {self.port}")

    def _ready(self) -> bool:
        with psycopg.connect(self.dsn(), connect_timeout=1) as conn:
            conn.execute("select 1")
        return True

    def create_database(self, name: str) -> str:
        """Create an empty database and return its URL."""
        with psycopg.connect(self.dsn(), autocommit=True) as conn:
            conn.execute(f'create database "{name}"')
        return self.dsn(name)

    def stop(self) -> None:
        """Stop the server and remove its data directory."""
        self.process.stop()
        shutil.rmtree(self.root, ignore_errors=True)
