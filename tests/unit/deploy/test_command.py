"""A command past its timeout is interrupted first (Terraform then writes its state whole),
and killed only if it does not stop within the grace. Its confinement is the one made where
no sandbox can be (the process on the host, in its own session): the timeout's logic is
the same in both, and the host's pids are the ones this test can see."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from kit.deploy import command
from kit.sandbox import cgroup
from kit.sandbox.confine import Confinement
from kit.sandbox.limits import WORKLOAD
from kit.sandbox.view import View


@pytest.fixture
def unconfined(monkeypatch: pytest.MonkeyPatch) -> Confinement:
    monkeypatch.setattr(cgroup.Group, "create", classmethod(lambda cls, limits: None))
    monkeypatch.setattr(Confinement, "confined", property(lambda self: False))
    return Confinement("test", View(), WORKLOAD)


def test_a_command_past_its_timeout_stops_on_sigint_and_finishes_what_it_writes(
        tmp_path: Path, unconfined: Confinement) -> None:
    script = "trap 'echo whole > state; exit 130' INT; echo started; while :; do sleep 0.05; done"
    done = command.run(["sh", "-c", script], cwd=tmp_path, env=dict(os.environ), timeout=0.5,
                       confinement=unconfined)
    assert done.returncode is None  # timed out
    assert (tmp_path / "state").read_text() == "whole\n"


def test_a_command_that_ignores_sigint_is_killed_after_the_grace(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, unconfined: Confinement) -> None:
    monkeypatch.setattr(command, "INTERRUPT_GRACE", 0.5)
    script = "trap '' INT; echo $$ > pid; while :; do sleep 0.05; done"
    done = command.run(["sh", "-c", script], cwd=tmp_path, env=dict(os.environ), timeout=0.5,
                       confinement=unconfined)
    assert done.returncode is None
    pid = int((tmp_path / "pid").read_text())
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)
