"""A child process the sandbox owns: own process group, log file, readiness, sure teardown."""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import subprocess
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kit.errors import SandboxError

if TYPE_CHECKING:
    from kit.sandbox.confine import Confinement
    from kit.sandbox.confined import Confined

_PR_SET_PDEATHSIG = 1


def die_with_parent() -> None:
    """In a child before exec: ask the kernel to SIGKILL it when its parent thread dies."""
    # If the kit itself is SIGKILLed, the kernel kills its services too: no orphans.
    ctypes.CDLL("libc.so.6", use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)


def signal_group(pgid: int, sig: int) -> None:
    """Send `sig` to a whole process group; a group that is already gone is fine."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, sig)


def log_tail(path: Path, lines: int = 20) -> str:
    """The last lines of a service log, for error messages."""
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return "(no log)"


class ManagedProcess:
    """A service process in its own session, killed with its whole group on stop().

    With a `confinement` (kit/sandbox/confine.py) it runs in a sandbox, which it closes
    on stop()."""

    def __init__(self, name: str, argv: Sequence[str], log_path: Path, *,
                 env: dict[str, str] | None = None, user: str | None = None,
                 cwd: Path | None = None, confinement: Confinement | None = None) -> None:
        self.name = name
        self.log_path = log_path
        self._log = log_path.open("ab")
        self.confinement = confinement
        self.confined: Confined | None = None
        try:
            if confinement is not None:
                self.confined = confinement.spawn(argv, env=env or {}, stdout=self._log,
                                                  stderr=subprocess.STDOUT,
                                                  cwd=str(cwd) if cwd else "/tmp")
                self.popen: subprocess.Popen[Any] = self.confined.popen
            else:
                self.popen = subprocess.Popen(
                    list(argv), stdout=self._log, stderr=subprocess.STDOUT,
                    stdin=subprocess.DEVNULL,
                    # In the sandbox's directory by default: nothing of it runs anywhere else.
                    env=env, cwd=cwd or log_path.parent, user=user, start_new_session=True,
                    preexec_fn=die_with_parent,
                )
        except OSError as exc:
            self._log.close()
            if confinement is not None:
                confinement.close()
            raise SandboxError(f"{name}: could not start {argv[0]}: {exc}") from exc

    @property
    def pid(self) -> int:
        return self.popen.pid

    def alive(self) -> bool:
        """Whether the process is still running."""
        return self.popen.poll() is None

    def wait_ready(self, probe: Callable[[], bool], timeout: float, what: str) -> None:
        """Poll `probe` until it holds; fail with the log tail on death or timeout."""
        deadline = time.monotonic() + timeout
        delay = 0.01
        while True:
            if not self.alive():
                raise SandboxError(
                    f"{self.name} exited with code {self.popen.returncode} before {what}.\n"
                    f"log {self.log_path}:\n{log_tail(self.log_path)}")
            try:
                if probe():
                    return
            except Exception:  # noqa: BLE001 - a probe error just means "not ready yet"
                pass
            if time.monotonic() >= deadline:
                raise SandboxError(
                    f"{self.name} (pid {self.pid}) was not ready ({what}) after {timeout:.0f} s."
                    f"\nlog {self.log_path}:\n{log_tail(self.log_path)}")
            time.sleep(delay)
            delay = min(delay * 2, 0.1)

    def stop(self, grace: float = 5.0) -> None:
        """SIGTERM the process group, then SIGKILL whatever is left after `grace` seconds."""
        try:
            if self.alive() and self.confined is not None:
                self.confined.terminate()  # to the process itself, through the sandbox's init
                with contextlib.suppress(subprocess.TimeoutExpired):
                    self.popen.wait(timeout=grace)
            elif self.alive():
                signal_group(self.popen.pid, signal.SIGTERM)
                with contextlib.suppress(subprocess.TimeoutExpired):
                    self.popen.wait(timeout=grace)
            # Children of the leader (e.g. postgres backends) may outlive it: kill the group.
            signal_group(self.popen.pid, signal.SIGKILL)
            self.popen.wait(timeout=grace)
        finally:
            self._log.close()
            if self.confined is not None:
                self.confined.poll()  # reads and closes its status pipe
            if self.confinement is not None:
                self.confinement.close()
