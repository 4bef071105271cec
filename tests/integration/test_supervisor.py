"""The supervisor tells a worker the solution kept from starting from a sandbox the kit broke."""

from __future__ import annotations

import dataclasses
import os
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from kit.recorder import Recorder
from kit.sandbox import cgroup, identity
from kit.sandbox.confine import Confinement
from kit.sandbox.limits import WORKLOAD
from kit.sandbox.support import support
from kit.sandbox.view import View
from kit.workload.supervisor import Supervisor

LIMIT = 8


@pytest.fixture
def confinement(tmp_path: Path) -> Iterator[Confinement]:
    if cgroup.unavailable() or support().mode is None:
        pytest.skip("needs a sandbox with a pids cgroup (root, cgroup v1)")
    held = identity.workload()
    workspace = tmp_path / "workspace"
    workspace.mkdir()
    identity.give(workspace, held)
    try:
        with Confinement("workload", View(), dataclasses.replace(WORKLOAD, processes=LIMIT),
                         identity=held, network="none", workspace=(workspace, "/work")) as made:
            yield made
    finally:
        if held:
            held.release()


def _supervise(confinement: Confinement, logdir: Path) -> tuple[Supervisor, list[dict]]:
    """One worker (`python -c pass`) supervised until it crash-loops; its exits."""
    recorder, stopping = Recorder(), threading.Event()
    supervisor = Supervisor(["python", "-c", "pass"], confinement, {}, 1, lambda _: {}, logdir,
                            recorder, grace=1.0, stopping=stopping)
    supervisor.start()
    assert stopping.wait(60), "the supervisor never stopped the run"
    supervisor.stop()
    return supervisor, [op.value.as_dict() for op in recorder.snapshot()
                        if op.kind == "worker_exit"]


def _within(seconds: float, condition: Callable[[], bool]) -> bool:
    """Whether `condition` holds within `seconds` (polled: a file has no event to wait on)."""
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def test_a_task_limit_the_solution_filled_is_its_workers_exit(
        confinement: Confinement, tmp_path: Path) -> None:
    # Stand-ins for the solution's own processes (a fork bomb's children) fill the group.
    assert confinement.group is not None
    fds = confinement.group.attach_fds()
    holders = [subprocess.Popen(["sleep", "600"], preexec_fn=lambda: [os.write(fd, b"0")
                                                                       for fd in fds])
               for _ in range(LIMIT)]
    try:
        supervisor, exits = _supervise(confinement, tmp_path)
    finally:
        for fd in fds:
            os.close(fd)
        for holder in holders:
            holder.kill()
            holder.wait()
    assert supervisor.error is None, supervisor.error
    assert supervisor.crash_looped
    assert exits and all(e["refused"] == f"the workers' task limit ({LIMIT}) was full"
                         for e in exits), exits


def test_a_worker_that_started_exits_without_a_refusal(
        confinement: Confinement, tmp_path: Path) -> None:
    supervisor, exits = _supervise(confinement, tmp_path)
    assert supervisor.error is None and supervisor.crash_looped
    # Exits of its own: no `by` (workload.workers_start's keeps_running judges them).
    assert exits and all(e == {**e, "code": 0} and "refused" not in e and "by" not in e
                         for e in exits), exits


def test_exits_the_kit_caused_are_marked_as_the_fault_s_and_the_stop_s(
        confinement: Confinement, tmp_path: Path) -> None:
    recorder, stopping = Recorder(), threading.Event()
    log = tmp_path / "worker-0.log"  # each incarnation says "up" there once it runs

    def up(n: int) -> Callable[[], bool]:
        return lambda: log.exists() and log.read_text().count("up") >= n

    command = ["python", "-c", "import time; print('up', flush=True); time.sleep(600)"]
    supervisor = Supervisor(command, confinement, {}, 1, lambda _: {}, tmp_path, recorder,
                            grace=1.0, stopping=stopping)
    supervisor.start()
    try:
        assert _within(30, up(1))
        assert supervisor.kill("worker-0#0")
        assert _within(30, up(2)), supervisor.error  # its restart is running
    finally:
        supervisor.stop()
    exits = {op.value.worker: op.value.by for op in recorder.snapshot()
             if op.kind == "worker_exit"}
    assert exits == {"worker-0#0": "fault", "worker-0#1": "stop"}, exits
