"""Toxiproxy: a server on a free port and a thin client for its HTTP API.

Hand-written rather than toxiproxy-python: that library keeps the server address in class
attributes of a global `APIConsumer`, so two sandboxes in one process (parallel runs) would
drive the same server; it also depends on the `future` py2 shim and was last released in 2019.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import requests

from kit.errors import SandboxError, ToolchainError
from kit.sandbox.ports import free_port, is_listening
from kit.sandbox.process import ManagedProcess
from kit.toolchain import toxiproxy_binary

READY_TIMEOUT = 15.0


class ToxiproxyServer:
    """A toxiproxy server process and the proxies it holds."""

    def __init__(self, workdir: Path) -> None:
        binary = toxiproxy_binary()
        if binary is None:
            raise ToolchainError("toxiproxy-server is missing: run `make setup`")
        self.port = free_port()
        self.api = f"http://127.0.0.1:{self.port}"
        self.process = ManagedProcess(
            "toxiproxy", [str(binary), "-host", "127.0.0.1", "-port", str(self.port)],
            workdir / "toxiproxy.log")

    def wait_ready(self) -> None:
        """Block until the service answers (bounded); raises SandboxError with its log."""
        self.process.wait_ready(self._ready, READY_TIMEOUT, f"API on port {self.port}")

    def _ready(self) -> bool:
        return requests.get(f"{self.api}/version", timeout=1).ok

    def _call(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        resp = requests.request(method, f"{self.api}{path}", json=body, timeout=10)
        if not resp.ok:
            raise SandboxError(f"toxiproxy {method} {path}: HTTP {resp.status_code} {resp.text}")
        return resp.json() if resp.content else None

    def proxy(self, name: str, upstream: str) -> Proxy:
        """Create a proxy listening on a free loopback port in front of `upstream` (host:port)."""
        info = self._call("POST", "/proxies",
                          {"name": name, "listen": "127.0.0.1:0", "upstream": upstream})
        proxy = Proxy(self, name, int(info["listen"].rsplit(":", 1)[1]))
        if not is_listening(proxy.port):
            raise SandboxError(f"toxiproxy proxy {name} is not listening on {info['listen']}")
        return proxy

    def reset(self) -> None:
        """Remove every proxy (a run deletes its own; this also clears an interrupted one's)."""
        for name in self._call("GET", "/proxies") or {}:
            self._call("DELETE", f"/proxies/{name}")

    def stop(self) -> None:
        """Stop the server."""
        self.process.stop()


class Proxy:
    """One proxy: its listen port, toxics, and enable/disable."""

    def __init__(self, server: ToxiproxyServer, name: str, port: int) -> None:
        self.server = server
        self.name = name
        self.port = port
        # Told of every enable/disable: the workers' namespace relay mirrors it.
        self.mirrors: list[Callable[[bool], None]] = []

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    def add_toxic(self, name: str, type: str, attributes: dict[str, Any], *,
                  stream: str = "downstream", toxicity: float = 1.0) -> None:
        """Add a toxic (latency, timeout, bandwidth, reset_peer, ...)."""
        self.server._call("POST", f"/proxies/{self.name}/toxics", {
            "name": name, "type": type, "stream": stream, "toxicity": toxicity,
            "attributes": attributes})

    def remove_toxic(self, name: str) -> None:
        """Remove a toxic by name."""
        self.server._call("DELETE", f"/proxies/{self.name}/toxics/{name}")

    def delete(self) -> None:
        """Remove the proxy and free its port (a sandbox outlives many runs)."""
        self.server._call("DELETE", f"/proxies/{self.name}")

    def set_upstream(self, upstream: str, enabled: bool = True) -> None:
        """Send new connections to `upstream` (host:port), enabled or not (one call: each
        update restarts the proxy); the listen port stays."""
        self.server._call("POST", f"/proxies/{self.name}",
                          {"upstream": upstream, "enabled": enabled})
        for mirror in self.mirrors:
            mirror(enabled)

    def set_enabled(self, enabled: bool) -> None:
        """Enable or disable the proxy (disabled: connections are refused and cut)."""
        self.server._call("POST", f"/proxies/{self.name}", {"enabled": enabled})
        for mirror in self.mirrors:
            mirror(enabled)
