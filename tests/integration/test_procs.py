"""The leak tests' scoped port check: a port is held by the test when this process, a
descendant or a fresh orphan listens on it, not when another process tree took it."""

from __future__ import annotations

import socket
import subprocess
import sys
import time

from kit.sandbox.ports import free_port
from tests.integration.procs import eventually, held_by_us

LISTEN = ("import socket, sys, time\n"
          "s = socket.socket(); s.bind(('127.0.0.1', int(sys.argv[1]))); s.listen()\n"
          "print('up', flush=True); time.sleep(60)\n")


def test_this_process_and_its_children_hold_their_ports() -> None:
    since = time.time()
    with socket.socket() as own:
        own.bind(("127.0.0.1", 0))
        own.listen()
        assert held_by_us(own.getsockname()[1], since)
    port = free_port()
    child = subprocess.Popen([sys.executable, "-c", LISTEN, str(port)], stdout=subprocess.PIPE,
                             text=True)
    try:
        assert child.stdout is not None and child.stdout.readline() == "up\n"
        assert held_by_us(port, since)
    finally:
        child.kill()
        child.wait()
    assert eventually(lambda: not held_by_us(port, since))


def test_an_orphan_started_since_holds_its_port_and_an_older_tree_does_not() -> None:
    since = time.time()
    port = free_port()
    # `sh` exits at once: its background child is re-parented to init, as a leaked service is.
    shell = subprocess.run(["sh", "-c", f'"{sys.executable}" -c "$0" {port} >/dev/null 2>&1 & '
                            "echo $!", LISTEN], capture_output=True, text=True, check=True)
    orphan = int(shell.stdout)
    try:
        assert eventually(lambda: bool(held_by_us(port, since)), timeout=15)
        # Started before `since`, its listener is another tree's that took a freed port.
        assert held_by_us(port, time.time() + 3600) == []
    finally:
        subprocess.run(["kill", "-9", str(orphan)], check=False)
    assert eventually(lambda: not held_by_us(port, since))
