"""Real local services for one run: the AWS emulator (moto, or LocalStack with moto for what
it lacks: kit/sandbox/emulator.py), Toxiproxy and PostgreSQL on free loopback ports, and a
long-lived AWS provider process that terraform attaches to.

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
from typing import TYPE_CHECKING, Any

from kit import interrupt
from kit.errors import InputError
from kit.sandbox import identity, localstack_split
from kit.sandbox.emulator import NAMES, Emulator, Routes
from kit.sandbox.localstack import LocalStackServer, RemoteLocalStack
from kit.sandbox.moto import MotoServer
from kit.sandbox.postgres import PostgresCluster
from kit.sandbox.toxiproxy import ToxiproxyServer

if TYPE_CHECKING:
    from kit.deploy.provider import ProviderServer
    from kit.rds.front import RdsFront

TEMP_PREFIX = "kit-sandbox-"


class Sandbox:
    """The emulator(s) + Toxiproxy + PostgreSQL + the RDS front and its data plane, started
    together and torn down together.

    `emulator` is the primary emulator ("moto" or "localstack"); with "localstack", moto
    runs beside it for the services LocalStack lacks. `emulator_url` uses a LocalStack that
    is already running instead of starting one (the kit empties its account between runs).
    """

    moto: MotoServer  # always there: the default emulator, and the fallback of the other
    localstack: LocalStackServer | RemoteLocalStack | None = None
    toxiproxy: ToxiproxyServer
    postgres: PostgresCluster
    rds: RdsFront

    provider: ProviderServer | None = None

    def __init__(self, *, postgres: bool = True, provider: bool = False,
                 emulator: str = "moto", emulator_url: str | None = None) -> None:
        if emulator not in NAMES:
            raise InputError(f"--emulator {emulator!r}: unknown; choose one of "
                             f"{', '.join(NAMES)}")
        if emulator_url and emulator != "localstack":
            raise InputError("--emulator-url points at a running LocalStack: use it with "
                             "--emulator localstack")
        self.emulator = emulator
        self._emulator_url = emulator_url
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
            if self._emulator_url:
                self.localstack = RemoteLocalStack(self._emulator_url)
                self._stack.callback(self.localstack.stop)  # sweeps the kit's account
            # Here, not at the top: kit.rds and kit.deploy use kit.sandbox's modules.
            from kit.deploy.provider import ProviderServer
            from kit.rds.front import RdsFront

            # The services that need no other first: they boot while moto's zygote imports
            # moto (the first sandbox of a kit process waits for it: kit/sandbox/moto.py).
            kinds: dict[str, type] = {"toxiproxy": ToxiproxyServer}
            if self.emulator == "localstack" and not self._emulator_url:
                # Before moto: its RDS is told where LocalStack is (localstack_split.py).
                kinds["localstack"] = LocalStackServer
            if self._want_postgres:
                kinds["postgres"] = PostgresCluster
            kinds |= {"moto": MotoServer, "rds": RdsFront}
            if self._want_provider:
                kinds["provider"] = ProviderServer
            for name, service in self._start_all(kinds).items():
                setattr(self, name, service)
        except BaseException:
            self._stack.close()
            raise
        return self

    @property
    def routes(self) -> Routes:
        """Which emulator serves each AWS service."""
        return self._routes({"moto": self.moto, "localstack": self.localstack,
                             "rds": self.rds})

    def endpoint(self, service: str) -> str:
        """The endpoint of an AWS service, for the kit's own clients."""
        return self.routes.url(service)

    @property
    def emulators(self) -> list[Emulator]:
        """Every emulator of this sandbox, the primary first."""
        return [self.routes.primary, *([self.moto] if self.localstack is not None else [])]

    def reset(self) -> None:
        """Empty every emulator and remove every proxy: a fresh sandbox for the next run."""
        for emulator in self.emulators:
            emulator.reset()
        self.toxiproxy.reset()

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
            # The provider process is aimed at the emulators (RDS: at the front) when it
            # starts; the front sits before moto and drives Toxiproxy.
            extra: dict[str, object] = {}
            if name == "provider":
                extra = {"routes": self._routes(started)}
            elif name == "moto":
                extra = {"peer": self._split(started)}
            elif name == "rds":
                extra = {"moto": started["moto"].url, "toxiproxy": started["toxiproxy"]}
            with interrupt.deferred():
                started[name] = kind(workdir=self.workdir, **extra)
                self._stack.callback(started[name].stop)
        with ThreadPoolExecutor(max_workers=len(started)) as pool:
            for future in [pool.submit(s.wait_ready) for s in started.values()]:
                future.result()
        return started

    def _split(self, started: dict[str, Any]) -> dict[str, str]:
        """Where moto's RDS looks up what the primary serves (none when moto is primary)."""
        primary = self.localstack or started.get("localstack")
        return localstack_split.settings(primary.url, primary.services) if primary else {}

    def _routes(self, started: dict[str, Any]) -> Routes:
        """The routes, from the emulators started so far (a remote LocalStack is not)."""
        primary = self.localstack or started.get("localstack")
        fronts = {"rds": started["rds"].url} if started.get("rds") else {}
        return Routes(primary or started["moto"], started["moto"] if primary else None, fronts)

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self._stack.close()
