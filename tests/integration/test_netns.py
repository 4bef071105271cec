"""The workers' network namespace: only the contract's ports are reachable from inside."""

from __future__ import annotations

import shutil
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from kit import scenario
from kit.run.pipeline import run_once
from kit.run.sandbox import Sandbox
from kit.sandbox.attempts import RefusedAttempts
from kit.sandbox.netns import WorkerNetwork
from tests.integration.procs import alive, eventually

PROBE = """
import socket, sys
for name, port in {targets}:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=2).close()
        print(name, "reached")
    except OSError as exc:
        print(name, "refused" if isinstance(exc, ConnectionRefusedError) else repr(exc))
"""


@pytest.fixture
def upper() -> Iterator[socket.socket]:
    """A host server that answers each message upper-cased."""
    server = socket.create_server(("127.0.0.1", 0))

    def serve() -> None:
        while True:
            try:
                conn, _ = server.accept()
            except OSError:
                return
            with conn:
                while data := conn.recv(100):
                    conn.sendall(data.upper())

    threading.Thread(target=serve, daemon=True).start()
    yield server
    server.close()


def _probe(network: WorkerNetwork, **targets: int) -> dict[str, str]:
    code = PROBE.format(targets=list(targets.items()))
    out = subprocess.run([sys.executable, "-c", code], preexec_fn=network.enter,
                         capture_output=True, text=True, check=True, timeout=30).stdout
    return dict(line.split(" ", 1) for line in out.splitlines())


def _talk(network: WorkerNetwork, port: int) -> str:
    code = (f"import socket; s = socket.create_connection(('127.0.0.1', {port}), timeout=5)\n"
            "s.sendall(b'hello'); s.shutdown(socket.SHUT_WR); print(s.recv(100).decode())")
    return subprocess.run([sys.executable, "-c", code], preexec_fn=network.enter,
                          capture_output=True, text=True, check=True, timeout=30).stdout.strip()


def test_only_the_relayed_port_is_reachable_and_disabling_refuses_it(
        upper: socket.socket) -> None:
    other = socket.create_server(("127.0.0.1", 0))
    relayed = upper.getsockname()[1]
    network = WorkerNetwork.create([relayed])
    if network is None:
        pytest.skip("this machine allows no network namespace (needs root)")
    with network, other:
        assert _talk(network, relayed) == "HELLO"
        assert _probe(network, other=other.getsockname()[1]) == {"other": "refused"}
        network.set_enabled(relayed, False)
        assert _probe(network, relayed=relayed) == {"relayed": "refused"}
        network.set_enabled(relayed, True)
        assert _talk(network, relayed) == "HELLO"


LOOP = """
import socket
for _ in range({n}):
    try:
        socket.create_connection(("127.0.0.1", {port}), timeout=2).close()
    except ConnectionRefusedError:
        pass
"""


def test_attempts_refused_while_a_port_is_closed_are_counted(upper: socket.socket) -> None:
    """A worker reconnecting in a loop during an outage is seen (kit/sandbox/attempts.py):
    the kernel's count of refused attempts in the namespace, reported while the port is
    closed and not after it opens again."""
    relayed = upper.getsockname()[1]
    network = WorkerNetwork.create([relayed])
    if network is None:
        pytest.skip("this machine allows no network namespace (needs root)")
    reports: list[tuple[int, int]] = []
    attempts = RefusedAttempts(network, lambda port, n: reports.append((port, n)))
    with network:
        network.set_enabled(relayed, False)
        attempts.set_enabled(relayed, False)
        subprocess.run([sys.executable, "-c", LOOP.format(n=300, port=relayed)],
                       preexec_fn=network.enter, check=True, timeout=30)
        network.set_enabled(relayed, True)
        attempts.set_enabled(relayed, True)  # a last sample, then no more
        assert reports and reports[-1] == (relayed, 300), reports
        assert _talk(network, relayed) == "HELLO"
        subprocess.run([sys.executable, "-c", LOOP.format(n=5, port=relayed + 1)],
                       preexec_fn=network.enter, check=True, timeout=30)
        assert reports[-1] == (relayed, 300)
        attempts.stop()


ESCAPE = """
import ctypes, os, sys, time
caps = [l for l in open("/proc/self/status") if l.startswith("CapEff")][0].split()[1]
libc = ctypes.CDLL("libc.so.6", use_errno=True)
try:  # back to the host's network namespace
    left = libc.setns(os.open("/proc/1/ns/net", os.O_RDONLY), 0x40000000) == 0
except PermissionError:
    left = False
if os.fork() == 0:  # a daemon that leaves the worker's session and outlives it
    os.setsid()
    if os.fork() == 0:
        null = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(null, fd)
        time.sleep(600)
    os._exit(0)
print(caps, left, flush=True)
"""


def test_a_worker_has_no_capability_and_its_daemons_die_with_the_namespace() -> None:
    network = WorkerNetwork.create([])
    if network is None:
        pytest.skip("this machine allows no network namespace (needs root)")
    with network:
        out = subprocess.run([sys.executable, "-c", ESCAPE], preexec_fn=network.enter,
                             capture_output=True, text=True, check=True, timeout=30).stdout
        assert out.split() == ["0000000000000000", "False"]  # no caps; could not leave
        assert eventually(lambda: len(network.members()) == 1)  # the daemon
        daemon = network.members()[0]
    assert eventually(lambda: not alive(daemon))


def test_a_worker_cannot_reach_the_emulator_postgres_or_toxiproxy(tmp_path: Path) -> None:
    probe = WorkerNetwork.create([])
    if probe is None:  # then workers share the host's loopback, as docs/threat-model.md says
        pytest.skip("this machine allows no network namespace (needs root)")
    probe.close()
    sc = scenario.load("order-pipeline")
    with Sandbox(provider=True) as sandbox:
        solution = tmp_path / "solution"
        shutil.copytree(sc.golden, solution)
        package = solution / "worker" / "__init__.py"
        targets = {"moto": sandbox.moto.port, "postgres": sandbox.postgres.port,
                   "toxiproxy": sandbox.toxiproxy.port}
        # A worker that probes the kit's services before doing its job.
        package.write_text(package.read_text() + PROBE.format(targets=list(targets.items())))
        result = run_once(sc, solution, "none", 1, tmp_path / "run", sandbox)
    assert result.outcome == "pass", result.error
    log = (tmp_path / "run" / "worker-0.log").read_text()
    for name in targets:
        assert f"{name} refused" in log, log
