"""The moto servers of a kit process's sandboxes are forked from one zygote with moto already
imported (kit/sandbox/moto_zygote.py), and each is what `python -m kit.sandbox.moto_main`
would be: its own process, session, directory, state and journal, with the fidelity fixes
in place; the kit's death ends the zygote and its servers. Parallel-safe: it looks only at
its own processes (by pid) and the zygote of its own process."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import boto3
import psutil

from kit.run.sandbox import Sandbox
from kit.sandbox import moto_fork
from kit.sandbox.moto_fork import ForkedProcess
from tests.integration.procs import alive, eventually


def _sqs(url: str):  # noqa: ANN202 - boto3 client types are generated
    return boto3.client("sqs", endpoint_url=url, region_name="us-east-1",
                        aws_access_key_id="kit", aws_secret_access_key="kit")


def _zygote_pids() -> set[int]:
    """This process's zygotes (children running kit.sandbox.moto_zygote)."""
    return {p.pid for p in psutil.Process().children()
            if "kit.sandbox.moto_zygote" in " ".join(p.cmdline())}


def test_two_sandboxes_get_two_servers_that_share_nothing() -> None:
    with Sandbox(postgres=False) as one, Sandbox(postgres=False) as two:
        servers = [sb.moto.process for sb in (one, two)]
        assert all(isinstance(p, ForkedProcess) for p in servers)  # else this shows nothing
        zygote = psutil.Process(servers[0].pid).ppid()
        assert zygote in _zygote_pids() and psutil.Process(servers[1].pid).ppid() == zygote
        assert servers[0].pid != servers[1].pid
        for sb, proc in zip((one, two), servers, strict=True):
            assert os.getpgid(proc.pid) == proc.pid and os.getsid(proc.pid) == proc.pid
            assert Path(os.readlink(f"/proc/{proc.pid}/cwd")) == sb.workdir
        _sqs(one.moto.url).create_queue(QueueName="only-in-one")
        assert _sqs(two.moto.url).list_queues().get("QueueUrls", []) == []
        # A fidelity fix is in place (sqs.restore_redrive_allow_policy, test_fidelity.py).
        url = _sqs(two.moto.url).create_queue(QueueName="dlq", Attributes={
            "RedriveAllowPolicy": json.dumps({"redrivePermission": "denyAll"})})["QueueUrl"]
        got = _sqs(two.moto.url).get_queue_attributes(QueueUrl=url, AttributeNames=["All"])
        assert "RedriveAllowPolicy" in got["Attributes"]
        # Each journal holds its own server's answers only (ListQueues: two's alone).
        actions = [[json.loads(line)["action"] for line in sb.moto.journal.path.read_text()
                    .splitlines()] for sb in (one, two)]
        assert "CreateQueue" in actions[0] and "ListQueues" not in actions[0], actions[0]
        assert "ListQueues" in actions[1], actions[1]
    for proc in servers:
        assert eventually(lambda proc=proc: not alive(proc.pid)), proc.pid
    assert zygote in _zygote_pids()  # kept for the next sandbox


def test_a_server_that_dies_is_seen_dead() -> None:
    with Sandbox(postgres=False) as sb:
        proc = sb.moto.process
        assert isinstance(proc, ForkedProcess)
        os.kill(proc.pid, signal.SIGKILL)
        assert eventually(lambda: not proc.alive())
        assert sb.moto.answering() == f"the moto process exited with code {moto_fork.EXITED}"


CHILD = textwrap.dedent("""
    import json, os, time
    import psutil
    from kit.run.sandbox import Sandbox
    with Sandbox(postgres=False) as sb:
        print(json.dumps({"moto": sb.moto.process.pid,
                          "zygote": psutil.Process(sb.moto.process.pid).ppid()}), flush=True)
        time.sleep(60)
""")


def test_the_kits_death_ends_its_zygote_and_servers() -> None:
    child = subprocess.Popen([sys.executable, "-c", CHILD], stdout=subprocess.PIPE, text=True)
    assert child.stdout is not None
    pids = json.loads(child.stdout.readline())
    assert psutil.Process(pids["zygote"]).ppid() == child.pid
    child.kill()
    child.wait(timeout=30)
    for pid in pids.values():  # PR_SET_PDEATHSIG: the kit -> its zygote -> its servers
        assert eventually(lambda pid=pid: not alive(pid), timeout=15), pid


def test_a_kit_whose_environment_keeps_changing_still_forks(monkeypatch) -> None:  # noqa: ANN001
    # One zygote per environment, at most MAX_ZYGOTES: one whose servers all ended makes
    # room (else a long test process, whose tests each set a variable, fell back to
    # importing moto anew, and the first test of this file saw no zygote).
    for n in range(moto_fork.MAX_ZYGOTES + 2):
        monkeypatch.setenv("KIT_TEST_ZYGOTE_ENVIRONMENT", str(n))
        with Sandbox(postgres=False) as sb:
            assert isinstance(sb.moto.process, ForkedProcess), n
    assert len(moto_fork._ZYGOTES) <= moto_fork.MAX_ZYGOTES


def _ignored(pid: int) -> int:
    line = next(x for x in Path(f"/proc/{pid}/status").read_text().splitlines()
                if x.startswith("SigIgn:"))
    return int(line.split()[1], 16)


def test_a_forked_server_ignores_sigpipe_as_a_fresh_moto_main_does() -> None:
    # Python's start-up ignores SIGPIPE: a write to a socket its client closed (Terraform
    # killed at the deploy's time limit) raises BrokenPipeError in one request's thread.
    # A forked server that took SIGPIPE's default died of it, and the kit's probe saw
    # "connection reset": the kit's error instead of the solution's fail (test_deploy.py).
    with Sandbox(postgres=False) as sb:
        assert isinstance(sb.moto.process, ForkedProcess)
        assert _ignored(sb.moto.process.pid) & (1 << (signal.SIGPIPE - 1))
