"""ForkedPopen: a process the kit did not fork, watched through a pidfd as Popen would be."""

from __future__ import annotations

import subprocess
import sys

import pytest

from kit.sandbox.moto_fork import EXITED, ForkedPopen


def _sleeper() -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])


def test_a_running_process_polls_none_and_its_wait_times_out() -> None:
    child = _sleeper()
    try:
        watched = ForkedPopen(child.pid)
        assert watched.poll() is None
        with pytest.raises(subprocess.TimeoutExpired):
            watched.wait(timeout=0.2)
    finally:
        child.kill()
        child.wait()


def test_an_ended_process_is_seen_ended() -> None:
    child = _sleeper()
    watched = ForkedPopen(child.pid)
    child.kill()
    assert watched.wait(timeout=10) == EXITED
    assert watched.poll() == EXITED and watched.returncode == EXITED
    child.wait()


def test_a_pid_already_gone_is_ended() -> None:
    child = _sleeper()
    child.kill()
    child.wait()  # reaped: the pid no longer exists
    assert ForkedPopen(child.pid).poll() == EXITED
