"""Run one CLI command in its own process group, bounded by a timeout, killed on Ctrl-C."""

from __future__ import annotations

import signal
import subprocess
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from kit.sandbox.process import die_with_parent, signal_group


@dataclass(frozen=True)
class Completed:
    """What a command printed and how it ended (returncode None = timed out)."""

    argv: tuple[str, ...]
    returncode: int | None
    stdout: str
    stderr: str

    @property
    def ok(self) -> bool:
        return self.returncode == 0


def run(argv: Sequence[str], *, cwd: Path, env: Mapping[str, str], timeout: float) -> Completed:
    """Run argv to completion; on timeout or any interruption, kill its whole group."""
    proc = subprocess.Popen(
        list(argv), cwd=cwd, env=dict(env), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL, text=True, start_new_session=True, preexec_fn=die_with_parent)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        signal_group(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        return Completed(tuple(argv), None, out, err)
    except BaseException:
        # Ctrl-C or any error in the kit: the command and its plugins must not outlive us.
        signal_group(proc.pid, signal.SIGKILL)
        proc.communicate()
        raise
    # Providers are children of terraform in its group; reap any straggler.
    signal_group(proc.pid, signal.SIGKILL)
    return Completed(tuple(argv), proc.returncode, out, err)
