"""A command past its timeout is interrupted first (Terraform then writes its state whole),
and killed only if it does not stop within the grace."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from kit.deploy import command


def test_a_command_past_its_timeout_stops_on_sigint_and_finishes_what_it_writes(
        tmp_path: Path) -> None:
    script = "trap 'echo whole > state; exit 130' INT; echo started; while :; do sleep 0.05; done"
    done = command.run(["sh", "-c", script], cwd=tmp_path, env=dict(os.environ), timeout=0.5)
    assert done.returncode is None  # timed out
    assert (tmp_path / "state").read_text() == "whole\n"


def test_a_command_that_ignores_sigint_is_killed_after_the_grace(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(command, "INTERRUPT_GRACE", 0.5)
    script = "trap '' INT; echo $$ > pid; while :; do sleep 0.05; done"
    done = command.run(["sh", "-c", script], cwd=tmp_path, env=dict(os.environ), timeout=0.5)
    assert done.returncode is None
    pid = int((tmp_path / "pid").read_text())
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)
