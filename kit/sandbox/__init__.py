"""Real local services for one run: moto, Toxiproxy and PostgreSQL on free loopback ports,
and a long-lived AWS provider process that terraform attaches to.

`Sandbox` is a context manager: on normal exit, on an exception and on Ctrl-C it stops every
service it started (whole process groups) and removes its temp dir. Services also die with
the kit process (PR_SET_PDEATHSIG), so even a SIGKILLed kit leaves no orphans.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING

from kit import interrupt
from kit.sandbox import identity
from kit.sandbox.moto import MotoServer
from kit.sandbox.postgres import PostgresCluster
from kit.sandbox.provider import ProviderServer
from kit.sandbox.toxiproxy import ToxiproxyServer

if TYPE_CHECKING:
    from kit.rds.front import RdsFront

TEMP_PREFIX = "kit-sandbox-"


class Sandbox:
    """moto + Toxiproxy + PostgreSQL (+ the RDS front and its data plane), started together
    and torn down together."""

    moto: MotoServer
    toxiproxy: ToxiproxyServer
    postgres: PostgresCluster
    rds: RdsFront

    provider: ProviderServer | None = None

    def __init__(self, *, postgres: bool = True, provider: bool = False) -> None:
        self._want_postgres = postgres
        self._want_provider = provider
        self._stack = contextlib.ExitStack()
        self.workdir: Path | None = None
        # The user this sandbox's workloads run as (None: the kit cannot switch users).
        self.workload_identity: identity.Identity | None = None

    def __enter__(self) -> Sandbox:
        try:
            with interrupt.deferred():
                self.workdir = Path(tempfile.mkdtemp(prefix=TEMP_PREFIX))
                self._stack.callback(shutil.rmtree, self.workdir, True)
            # Traversable (not listable) so the unprivileged postgres user reaches its subdir.
            os.chmod(self.workdir, 0o711)
            self.runs_dir.mkdir(mode=0o711)
            with interrupt.deferred():
                self.workload_identity = identity.workload()
                if self.workload_identity:
                    self._stack.callback(self.workload_identity.release)
            from kit.rds.front import RdsFront  # kit.rds uses kit.sandbox's modules

            kinds: dict[str, type] = {"moto": MotoServer, "toxiproxy": ToxiproxyServer,
                                      "rds": RdsFront}
            if self._want_postgres:
                kinds["postgres"] = PostgresCluster
            if self._want_provider:
                kinds["provider"] = ProviderServer
            for name, service in self._start_all(kinds).items():
                setattr(self, name, service)
        except BaseException:
            self._stack.close()
            raise
        return self

    @property
    def runs_dir(self) -> Path:
        """Where runs keep their working copies (the provider may read them)."""
        assert self.workdir is not None
        return self.workdir / "runs"

    def _start_all(self, kinds: dict[str, type]) -> dict[str, object]:
        """Start every service, then wait for all of them at once (the waits overlap)."""
        started: dict[str, object] = {}
        for name, kind in kinds.items():
            # Spawned from this thread: PR_SET_PDEATHSIG fires when the spawning *thread*
            # exits, so a pool thread must never be the parent.
            # The provider process is aimed at the emulator (RDS: at the front) when it
            # starts; the front sits before moto and drives Toxiproxy.
            extra: dict[str, object] = {}
            if kind is ProviderServer:
                extra = {"endpoint": started["moto"].url, "rds_endpoint": started["rds"].url}
            elif name == "rds":
                extra = {"moto": started["moto"].url, "toxiproxy": started["toxiproxy"]}
            with interrupt.deferred():
                started[name] = kind(workdir=self.workdir, **extra)
                self._stack.callback(started[name].stop)
        with ThreadPoolExecutor(max_workers=len(started)) as pool:
            for future in [pool.submit(s.wait_ready) for s in started.values()]:
                future.result()
        return started

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self._stack.close()
