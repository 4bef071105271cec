"""Run one CLI command in its sandbox (kit/sandbox/confine.py), bounded by a timeout, killed
on Ctrl-C."""

from __future__ import annotations

import signal
import subprocess
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from kit.sandbox.confine import Confinement
from kit.sandbox.confined import Confined
from kit.sandbox.process import signal_group

# How long a command past its timeout has to stop on SIGINT before it is killed: Terraform
# then finishes its in-flight requests and writes its state whole (killed mid-write, the
# state is truncated and no later destroy can read it).
INTERRUPT_GRACE = 30.0


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


def run(argv: Sequence[str], *, cwd: Path, env: Mapping[str, str], timeout: float,
        confinement: Confinement) -> Completed:
    """Run argv to completion, confined; on timeout, interrupt it and kill it after a
    grace; on any other interruption, kill its whole sandbox."""
    confined = confinement.spawn(argv, cwd=str(cwd), env=env, stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True)
    proc = confined.popen
    try:
        out, err, timed_out = _outputs(proc, confined, timeout)
    except BaseException:
        # Ctrl-C or any error in the kit: the command and its plugins must not outlive us.
        signal_group(proc.pid, signal.SIGKILL)
        proc.communicate()
        raise
    finally:
        confined.poll()  # once it ended: its own exit code, and its status pipe closed
    # Providers are children of terraform in its group; reap any straggler.
    signal_group(proc.pid, signal.SIGKILL)
    if timed_out:
        return Completed(tuple(argv), None, out, err)
    confined.check_started(err)  # a sandbox that never ran the command is the kit's error
    return Completed(tuple(argv), confined.returncode, out, err)


def _outputs(proc: subprocess.Popen[str], confined: Confined,
             timeout: float) -> tuple[str, str, bool]:
    """What the command printed, and whether it ran past its timeout (then it was
    interrupted, and killed if it did not stop within the grace)."""
    try:
        out, err = proc.communicate(timeout=timeout)
        return out, err, False
    except subprocess.TimeoutExpired:
        # A confined command's init forwards the signal; bwrap itself would not.
        confined.send_signal(signal.SIGINT)
    try:
        out, err = proc.communicate(timeout=INTERRUPT_GRACE)
    except subprocess.TimeoutExpired:
        signal_group(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
    return out, err, True
