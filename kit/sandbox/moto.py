"""The default AWS emulator: a moto server on a free loopback port, reset between runs."""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from pathlib import Path

import requests

from kit.errors import SandboxError
from kit.sandbox import moto_fork
from kit.sandbox.journal import Journal
from kit.sandbox.ports import free_port
from kit.sandbox.process import ManagedProcess
from kit.toolchain import emulators

READY_TIMEOUT = 30.0
PROBE_TIMEOUT = 10.0
ACCOUNT_ID = "123456789012"
REGION = "us-east-1"


class MotoServer:
    """A moto server process (kit/sandbox/emulator.py). Its admin API (/moto-api/*) is for
    the kit only."""

    name = "moto"
    account_id = ACCOUNT_ID
    admin_paths = ("/moto-api",)
    services = None  # every service the kit knows (the fallback for the others)

    def __init__(self, workdir: Path, peer: Mapping[str, str] | None = None) -> None:
        """`peer`: where its RDS looks up what the primary emulator serves
        (kit/sandbox/localstack_split.py), when moto is the fallback."""
        # A moto its fixes were not written for breaks them in ways a run would blame on
        # an emulator gap: refuse it first (every entry point also checks before any run).
        emulators.require()
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        # Its own record of every answer, which only this process writes: blame's evidence.
        self.journal = Journal(workdir / "moto-journal.jsonl")
        # Forked from a moto already imported (kit/sandbox/moto_zygote.py: why that cannot
        # change a verdict), or started anew where no zygote can serve, or with a peer (its
        # environment is the zygote's key: one per LocalStack sandbox would be no saving).
        self.process = (None if peer else moto_fork.spawn(
            self.port, self.journal.path, workdir / "moto.log")) or ManagedProcess(
            "moto", [sys.executable, "-m", "kit.sandbox.moto_main", str(self.port),
                     str(self.journal.path)], workdir / "moto.log",
            env={**os.environ, **peer} if peer else None)

    def wait_ready(self) -> None:
        """Block until the service answers (bounded); raises SandboxError with its log."""
        self.process.wait_ready(self._ready, READY_TIMEOUT, f"HTTP on port {self.port}")

    def _ready(self) -> bool:
        return requests.get(f"{self.url}/moto-api/data.json", timeout=1).ok

    def answering(self, timeout: float = PROBE_TIMEOUT) -> str | None:
        """None when the server is alive and answers the kit within `timeout`; else what
        the kit saw (the kit's own observation, for blame: kit/deploy/evidence.py)."""
        if not self.process.alive():
            return f"the moto process exited with code {self.process.popen.returncode}"
        try:
            # Its config: a few bytes (data.json serialises every resource it holds).
            requests.get(f"{self.url}/moto-api/config", timeout=timeout)
        except requests.RequestException as exc:
            return f"moto did not answer the kit's probe within {timeout:.0f} s ({exc})"
        return None

    def reset(self) -> None:
        """Wipe every emulated resource (and turn moto's own IAM enforcement off)."""
        resp = requests.post(f"{self.url}/moto-api/reset", timeout=10)
        if not resp.ok:
            raise SandboxError(f"moto reset failed: HTTP {resp.status_code} {resp.text[:200]}")

    def stop(self) -> None:
        """Stop the server."""
        self.process.stop()
