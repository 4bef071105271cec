"""Free loopback ports: never fixed ones, so several sandboxes can run at once."""

from __future__ import annotations

import socket

from kit.errors import SandboxError


def free_port() -> int:
    """A TCP port on 127.0.0.1 that was free a moment ago (the caller retries on a clash)."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
            sock.bind(("127.0.0.1", 0))
            return sock.getsockname()[1]
    except OSError as exc:
        raise SandboxError(f"no free loopback port ({exc.strerror}): the machine's ephemeral "
                           "ports (net.ipv4.ip_local_port_range) are exhausted; stop what "
                           "holds them or run fewer jobs") from exc


def is_listening(port: int, host: str = "127.0.0.1") -> bool:
    """Whether something accepts TCP connections on host:port."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.settimeout(0.2)
        return sock.connect_ex((host, port)) == 0
