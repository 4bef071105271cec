"""Free loopback ports: never fixed ones, so several sandboxes can run at once.

A listening port is picked below the kernel's ephemeral range
(net.ipv4.ip_local_port_range): a port the kernel hands out (bind to port 0) is one it
also hands to the next outgoing connection, and with thousands of client connections per
run (boto3, Terraform, the gateway) one of them took a sandbox's port between the check
and the server's own bind ("could not bind ... Address already in use": a run lost to the
kit's error). Below the range only another listener can take it."""

from __future__ import annotations

import random
import socket
from pathlib import Path

from kit.errors import SandboxError

EPHEMERAL = Path("/proc/sys/net/ipv4/ip_local_port_range")
LOWEST = 10000  # below: ports services often hold
TRIES = 64
# Not the run's seed: which port a server gets changes nothing a run records or judges.
_PICK = random.SystemRandom()


def _below_ephemeral() -> range:
    try:
        low = int(EPHEMERAL.read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return range(0)
    return range(LOWEST, low)


def _bindable(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def free_port() -> int:
    """A TCP port on 127.0.0.1 that was free a moment ago, below the ephemeral range where
    there is one (else one the kernel picks)."""
    candidates = _below_ephemeral()
    for _ in range(TRIES if len(candidates) else 0):
        port = _PICK.choice(candidates)
        if _bindable(port):
            return port
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
