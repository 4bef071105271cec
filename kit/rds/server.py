"""One PostgreSQL server of the data plane: its data directory, port and process.

Servers run as the unprivileged user (PostgreSQL refuses root), own their directory, and
listen on a free loopback port; clients reach them through the instance's Toxiproxy
endpoint and log in with a password (kit/sandbox/pgauth.py), the kit directly through a
Unix socket in a private directory of the server's own (a short path under the system temp
dir: a socket's path must fit in 107 bytes, and run directories are deep). Commits wait for
the WAL flush (`synchronous_commit=on`) and, on a Multi-AZ primary, for the standby's
(`synchronous_standby_names`). `fsync` is off: the host never crashes in a drill, and a
killed postmaster leaves the page cache intact, so what fsync protects against cannot
happen here.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import signal
import subprocess
import tempfile
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import psycopg
from psycopg.sql import Composable

from kit.errors import SandboxError, ToolchainError
from kit.rds.errors import DataPlaneError
from kit.sandbox import pgauth
from kit.sandbox.ports import free_port
from kit.sandbox.postgres import run_as, template
from kit.sandbox.process import ManagedProcess, die_with_parent, signal_group
from kit.toolchain import postgres_bindir

READY_TIMEOUT = 30.0
STOP_TIMEOUT = 10.0
TOOL_TIMEOUT = 120.0
# 1 MB WAL segments (the default is 16 MB): every WAL upload ships at least one segment.
FLAVOUR, INITDB_ARGS = "-rds", ("--wal-segsize=1",)
SETTINGS = {
    "listen_addresses": "'127.0.0.1'",
    "max_connections": "40", "shared_buffers": "'16MB'",
    "fsync": "off", "synchronous_commit": "on", "wal_level": "replica",
    "max_wal_senders": "5", "wal_keep_size": "'64MB'", "hot_standby": "on",
    "archive_mode": "on", "archive_command": "'/bin/true'",
    "track_commit_timestamp": "on", "log_min_messages": "warning",
    # A standby reconnects within this after its primary restarts (default 5 s), so that
    # synchronous commits wait for it no longer than the restart.
    "wal_retrieve_retry_interval": "'200ms'",
}


T = TypeVar("T")


class Spawner:
    """Starts server processes from one long-lived thread.

    A server dies with the thread that started it (PR_SET_PDEATHSIG fires when the spawning
    *thread* exits, so even a SIGKILLed kit leaves no server behind), and transitions run in
    short-lived worker threads: they hand the start to this thread instead.
    """

    def __init__(self) -> None:
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="rds-spawner")

    def __call__(self, start: Callable[[], T]) -> T:
        return self._pool.submit(start).result()

    def close(self) -> None:
        """Stop the thread (call only once every server it started is stopped)."""
        self._pool.shutdown(wait=True)


def _bindir() -> Path:
    found = postgres_bindir()
    if found is None:
        raise ToolchainError("PostgreSQL server binaries are missing: "
                             "run `apt-get update && apt-get install -y postgresql`")
    return found


def run_tool(argv: Sequence[str], what: str, timeout: float = TOOL_TIMEOUT) -> None:
    """Run a PostgreSQL tool as the servers' user, its whole group killed on timeout or
    interrupt (pg_basebackup forks a WAL streamer); DataPlaneError with its output."""
    proc = subprocess.Popen(list(argv), user=run_as(), stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, text=True,
                            start_new_session=True, preexec_fn=die_with_parent, cwd="/")
    try:
        out, _ = proc.communicate(timeout=timeout)
    except BaseException:
        signal_group(proc.pid, signal.SIGKILL)
        proc.communicate()
        raise
    if proc.returncode != 0:
        raise DataPlaneError(f"{what} failed (exit {proc.returncode}): {out.strip()[-1500:]}")


def own(path: Path, mode: int = 0o700) -> Path:
    """Make `path` a directory owned by the servers' user (created if missing)."""
    path.mkdir(mode=mode, exist_ok=True)
    user = run_as()
    if user:
        entry = pwd.getpwnam(user)
        os.chown(path, entry.pw_uid, entry.pw_gid)
    return path


class PgServer:
    """A PostgreSQL server in `root/name`: created from the template or a copy of a backup,
    started, crashed (SIGKILL), stopped, promoted."""

    def __init__(self, root: Path, name: str, source: Path | PgServer | None = None,
                 spawn: Callable[[Callable[[], ManagedProcess]], ManagedProcess] | None = None
                 ) -> None:
        self.bindir = _bindir()
        self.spawn = spawn or (lambda start: start())
        self.name = name
        self.dir = own(root / name)
        self.data = self.dir / "data"
        self.port = free_port()
        self.process: ManagedProcess | None = None
        if isinstance(source, PgServer):  # a replica: a base backup of the running source
            source.basebackup(self.data)
        else:
            self._copy(source)
        self.sockets = own(Path(tempfile.mkdtemp(prefix="kit-pgs-")))

    def _copy(self, source: Path | None) -> None:
        origin = source or template(self.bindir, run_as(), FLAVOUR, INITDB_ARGS)
        # cp -a keeps the owner: the template and every backup belong to the servers' user.
        copy = subprocess.run(["cp", "-a", str(origin), str(self.data)], capture_output=True,
                              text=True, check=False)
        if copy.returncode != 0:
            raise DataPlaneError(f"copying {origin} into {self.data} failed: {copy.stderr}")
        for stale in ("postmaster.pid", "standby.signal", "recovery.signal"):
            (self.data / stale).unlink(missing_ok=True)

    def configure(self, extra: dict[str, str] | None = None) -> None:
        """Replace the copied postgresql.auto.conf (a backup carries its source's settings,
        such as the source's archive) with the plane's settings plus `extra`, and the copied
        pg_hba.conf with the kit's."""
        own_socket = {"unix_socket_directories": f"'{self.sockets}'"}
        lines = [f"{k} = {v}" for k, v in {**SETTINGS, **own_socket, **(extra or {})}.items()]
        conf = self.data / "postgresql.auto.conf"
        conf.write_text("\n".join(lines) + "\n")
        shutil.chown(conf, run_as() or os.getuid())
        pgauth.write_hba(self.data, run_as())

    def signal_file(self, name: str) -> None:
        """Create `standby.signal` or `recovery.signal` before the first start."""
        path = self.data / name
        path.touch()
        shutil.chown(path, run_as() or os.getuid())

    def start(self, timeout: float = READY_TIMEOUT) -> None:
        """Start the server and wait (bounded) until it accepts connections."""
        self._reap()
        argv = [str(self.bindir / "postgres"), "-D", str(self.data), "-p", str(self.port)]
        self.process = self.spawn(lambda: ManagedProcess(
            f"postgres {self.name}", argv, self.dir / "server.log", user=run_as(), cwd=self.dir))
        try:
            self.process.wait_ready(self._ready, timeout, f"connections on {self.port}")
        except SandboxError as exc:
            raise DataPlaneError(str(exc)) from None

    def _ready(self) -> bool:
        with self.connect(connect_timeout=1):
            return True

    def alive(self) -> bool:
        """Whether the postmaster runs."""
        return self.process is not None and self.process.alive()

    def kill(self) -> None:
        """Crash the server: SIGKILL the postmaster alone (its backends notice and exit)."""
        if self.alive():
            assert self.process is not None
            os.kill(self.process.pid, signal.SIGKILL)

    def stop(self, timeout: float = STOP_TIMEOUT) -> None:
        """Fast shutdown (clients cut, a checkpoint written), then whatever is left killed."""
        if self.alive():
            assert self.process is not None
            os.kill(self.process.pid, signal.SIGINT)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.popen.wait(timeout)
        self._reap()

    def _reap(self) -> None:
        # Kills what is left of the group (backends of a killed postmaster) and closes the log.
        if self.process is not None:
            self.process.stop(grace=1.0)
            self.process = None

    def destroy(self) -> None:
        """Stop the server and remove its directory."""
        self.stop()
        shutil.rmtree(self.dir, ignore_errors=True)
        shutil.rmtree(self.sockets, ignore_errors=True)

    def dsn(self, dbname: str = "postgres", user: str = "postgres") -> str:
        """A libpq URL straight to this server over its private socket (the kit's; clients
        use the endpoint)."""
        return pgauth.socket_url(self.sockets, self.port, user, dbname)

    def connect(self, dbname: str = "postgres", **kwargs: Any) -> psycopg.Connection:
        """A superuser connection straight to this server, autocommit."""
        kwargs.setdefault("connect_timeout", 5)
        return psycopg.connect(self.dsn(dbname), autocommit=True, **kwargs)

    def query(self, sql: str | Composable, params: Sequence[Any] = ()
              ) -> list[tuple[Any, ...]]:
        """Run one statement as the superuser and return its rows."""
        with self.connect() as conn:
            # No parameters: no placeholders either, so that a `%` in a literal composed
            # into `sql` (a master password may hold one) is the literal's own character.
            cur = conn.execute(sql, params or None)  # type: ignore[arg-type]
            return cur.fetchall() if cur.description else []

    def set(self, settings: dict[str, str]) -> None:
        """Change settings at run time (ALTER SYSTEM, then reload)."""
        with self.connect() as conn:
            for key, value in settings.items():
                conn.execute(f"alter system set {key} = {value}")  # type: ignore[arg-type]
            conn.execute("select pg_reload_conf()")

    def basebackup(self, target: Path) -> None:
        """A base backup of this server into `target` (self-contained: -X stream)."""
        run_tool([str(self.bindir / "pg_basebackup"), "-h", str(self.sockets), "-p", str(self.port),
                  "-U", "postgres", "-D", str(target), "-X", "stream", "-c", "fast",
                  "--no-sync", "-w"], f"pg_basebackup of {self.name} into {target}")

    def promote(self) -> None:
        """End recovery and become a primary (waits for it, bounded)."""
        rows = self.query("select pg_promote(true, 60)")
        if not rows or rows[0][0] is not True:
            raise DataPlaneError(f"{self.name} did not promote within 60 s")

    def in_recovery(self) -> bool:
        """Whether the server still replays WAL (a standby, or a restore under way)."""
        return bool(self.query("select pg_is_in_recovery()")[0][0])
