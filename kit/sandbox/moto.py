"""The default AWS emulator: a moto server on a free loopback port, reset between runs."""

from __future__ import annotations

import sys
from pathlib import Path

import requests

from kit.errors import SandboxError
from kit.sandbox.ports import free_port
from kit.sandbox.process import ManagedProcess

READY_TIMEOUT = 30.0
ACCOUNT_ID = "123456789012"
REGION = "us-east-1"


class MotoServer:
    """A moto server process (kit/sandbox/emulator.py). Its admin API (/moto-api/*) is for
    the kit only."""

    name = "moto"
    account_id = ACCOUNT_ID
    admin_paths = ("/moto-api",)
    services = None  # every service the kit knows (the fallback for the others)

    def __init__(self, workdir: Path) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process = ManagedProcess(
            "moto", [sys.executable, "-m", "kit.sandbox.moto_main", str(self.port)],
            workdir / "moto.log")

    def wait_ready(self) -> None:
        """Block until the service answers (bounded); raises SandboxError with its log."""
        self.process.wait_ready(self._ready, READY_TIMEOUT, f"HTTP on port {self.port}")

    def _ready(self) -> bool:
        return requests.get(f"{self.url}/moto-api/data.json", timeout=1).ok

    def reset(self) -> None:
        """Wipe every emulated resource (and turn moto's own IAM enforcement off)."""
        resp = requests.post(f"{self.url}/moto-api/reset", timeout=10)
        if not resp.ok:
            raise SandboxError(f"moto reset failed: HTTP {resp.status_code} {resp.text[:200]}")

    def stop(self) -> None:
        """Stop the server."""
        self.process.stop()
