"""The sandbox starts real services on free ports and leaves nothing behind."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

import boto3
import psycopg
import pytest
import requests

from kit.run.sandbox import Sandbox
from tests.integration.procs import (
    alive,
    eventually,
    group_members,
    held_by_us,
    sandbox_temp_dirs,
)


def _services(sb: Sandbox) -> list[tuple[int, int]]:
    """(pid, port) of each service."""
    return [(sb.moto.process.pid, sb.moto.port), (sb.toxiproxy.process.pid, sb.toxiproxy.port),
            (sb.postgres.process.pid, sb.postgres.port)]


def _assert_gone(services: list[tuple[int, int]], workdir: object, since: float) -> None:
    for pid, port in services:
        assert not alive(pid), f"pid {pid} survived"
        assert group_members(pid) == [], f"children of {pid} survived"
        assert held_by_us(port, since) == [], f"port {port} still open"
    assert not os.path.exists(str(workdir))


def sqs(url: str):  # noqa: ANN201 - boto3 client types are generated
    return boto3.client("sqs", endpoint_url=url, region_name="us-east-1",
                        aws_access_key_id="kit", aws_secret_access_key="kit")


def test_services_answer_on_distinct_loopback_ports() -> None:
    with Sandbox() as sb, Sandbox() as other:
        ports = [port for _, port in _services(sb) + _services(other)]
        assert len(set(ports)) == len(ports)
        assert sqs(sb.moto.url).list_queues().get("QueueUrls", []) == []
        assert requests.get(f"{sb.toxiproxy.api}/version", timeout=5).ok
        with psycopg.connect(sb.postgres.create_database("app")) as conn:
            assert conn.execute("select current_database()").fetchone() == ("app",)


def test_moto_reset_isolates_runs() -> None:
    with Sandbox(postgres=False) as sb:
        client = sqs(sb.moto.url)
        client.create_queue(QueueName="left-over")
        sb.moto.reset()
        assert client.list_queues().get("QueueUrls", []) == []


# Parallel-safe (these three): a freed port another worker took at once is not held by us
# (`held_by_us`); the ten cycles list the kit-* dirs of a temp dir of their own (the shared
# /tmp holds other runs' too).
def test_teardown_on_exception() -> None:
    since = time.time()
    with pytest.raises(RuntimeError), Sandbox() as sb:
        services, workdir = _services(sb), sb.workdir
        raise RuntimeError("boom")
    _assert_gone(services, workdir, since)


def test_ten_cycles_leave_no_process_port_or_temp_dir(monkeypatch: pytest.MonkeyPatch) -> None:
    since = time.time()
    temp = Path(tempfile.mkdtemp(prefix="cycles-"))
    temp.chmod(0o711)  # the sandbox's PostgreSQL user must traverse it
    monkeypatch.setattr(tempfile, "tempdir", str(temp))
    try:
        seen = []
        for _ in range(10):
            with Sandbox() as sb:
                assert sb.workdir is not None and sb.workdir.parent == temp
                seen.append((_services(sb), sb.workdir))
        for services, workdir in seen:
            _assert_gone(services, workdir, since)
        assert sandbox_temp_dirs() == set() and os.listdir(temp) == []
    finally:
        shutil.rmtree(temp, ignore_errors=True)


# The child handles Ctrl-C as the kit's CLI does (`interrupt.install`): a shell's background
# job, such as a CI step, may start it with SIGINT ignored.
CHILD = textwrap.dedent("""
    import json, sys, time
    from kit import interrupt
    from kit.run.sandbox import Sandbox
    interrupt.install()
    with Sandbox() as sb:
        print(json.dumps({"pids": [sb.moto.process.pid, sb.toxiproxy.process.pid,
                                   sb.postgres.process.pid],
                          "ports": [sb.moto.port, sb.toxiproxy.port, sb.postgres.port],
                          "workdir": str(sb.workdir)}), flush=True)
        time.sleep(60)
""")


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGKILL])
def test_ctrl_c_or_kill_of_the_kit_leaves_nothing(sig: int) -> None:
    import json

    since = time.time()
    child = subprocess.Popen([sys.executable, "-c", CHILD], stdout=subprocess.PIPE, text=True)
    assert child.stdout is not None
    info = json.loads(child.stdout.readline())
    child.send_signal(sig)
    child.wait(timeout=30)
    for pid, port in zip(info["pids"], info["ports"], strict=True):
        # After a SIGKILL of the kit, PDEATHSIG and postgres' own postmaster-death check
        # act asynchronously: wait for them, bounded.
        assert eventually(lambda pid=pid: not alive(pid) and not group_members(pid))
        assert eventually(lambda port=port: not held_by_us(port, since))
    if sig == signal.SIGINT:
        assert not os.path.exists(info["workdir"])
