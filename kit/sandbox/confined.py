"""The kit's handle on a confined process (kit/sandbox/confine.py): Popen's interface, with
the command's own exit code or signal as its sandbox's init reports it."""

from __future__ import annotations

import contextlib
import json
import os
import select
import signal
import subprocess
import threading
from typing import Any

from kit.errors import SandboxError

INFO_TIMEOUT = 10.0


def init_pid(info_fd: int) -> int | None:
    """The host pid of the sandbox's PID 1, from bwrap's --info-fd (None if it failed)."""
    chunks = []
    # poll, not select: with the kit's descriptors above 1024, select() refuses them.
    poller = select.poll()
    poller.register(info_fd, select.POLLIN)
    try:
        while poller.poll(INFO_TIMEOUT * 1000):
            chunk = os.read(info_fd, 4096)
            if not chunk:
                break
            chunks.append(chunk)
    finally:
        os.close(info_fd)
    with contextlib.suppress(ValueError, KeyError):
        return int(json.loads(b"".join(chunks))["child-pid"])
    return None


class Confined:
    """A confined process, as the kit sees it: Popen's interface, with the command's own
    exit code or signal (not bwrap's), SIGTERM forwarded to it by the sandbox's init, and
    SIGKILL taking the whole sandbox down."""

    def __init__(self, popen: subprocess.Popen[Any], status_fd: int | None,
                 init_pid: int | None) -> None:
        self.popen = popen
        self._status_fd = status_fd
        self._init_pid = init_pid
        self.returncode: int | None = None
        self.started = status_fd is None  # unconfined: there is no init to say so
        self._lock = threading.Lock()  # polled by the supervisor and the fault thread
        if status_fd is not None:
            os.set_blocking(status_fd, False)

    @property
    def pid(self) -> int:
        return self.popen.pid

    def poll(self) -> int | None:
        """The command's return code (negative: killed by that signal), None if running."""
        if self.returncode is None and self.popen.poll() is not None:
            self._finish()
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        """Wait (bounded by `timeout`, TimeoutExpired past it) for the command to end."""
        self.popen.wait(timeout)
        self._finish()
        assert self.returncode is not None
        return self.returncode

    def _finish(self) -> None:
        with self._lock:
            if self.returncode is None:
                self._conclude()

    def _conclude(self) -> None:
        code = self.popen.returncode
        assert code is not None
        lines = self._read_status()
        self.started = self.started or "ready" in lines
        last = lines[-1] if lines else ""
        if code < 0 or not last.startswith(("exit ", "signal ")):
            self.returncode = code  # killed by the kit, or the sandbox never ran it
        else:
            number = int(last.split()[1])
            self.returncode = number if last.startswith("exit ") else -number

    def _read_status(self) -> list[str]:
        if self._status_fd is None:
            return []
        data = b""
        with contextlib.suppress(BlockingIOError, OSError):
            while chunk := os.read(self._status_fd, 4096):
                data += chunk
        os.close(self._status_fd)
        self._status_fd = None
        return data.decode(errors="replace").split("\n")[:-1] if data else []

    def send_signal(self, sig: int) -> None:
        """Deliver `sig` to the command (SIGKILL ends the whole sandbox at once)."""
        if self.poll() is not None:
            return
        # SIGKILL goes to bwrap, whose death kills the sandbox's init and with it every
        # process inside; other signals go to the init, which forwards them.
        target = self.popen.pid if sig == signal.SIGKILL or self._init_pid is None \
            else self._init_pid
        with contextlib.suppress(ProcessLookupError):
            os.kill(target, sig)

    def terminate(self) -> None:
        """SIGTERM the command."""
        self.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        """SIGKILL the sandbox (bwrap; the kernel then kills everything in it)."""
        self.send_signal(signal.SIGKILL)

    def check_started(self, output: str = "") -> None:
        """Raise the kit's error when the sandbox ended without running the command."""
        if self.poll() is not None and not self.started:
            raise SandboxError(f"the sandbox did not start (bwrap exited with "
                               f"{self.popen.returncode}): {output.strip()[-2000:]}")
