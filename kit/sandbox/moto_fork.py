"""The kit's side of the moto zygote (kit/sandbox/moto_zygote.py): one per kit process,
started from a thread that lives as long as the process, asked for one moto server per
sandbox; each server watched through a pidfd, stopped as ManagedProcess stops its own."""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import select
import subprocess
import sys
import threading
from pathlib import Path
from typing import IO

from kit.sandbox.process import ManagedProcess, die_with_parent

# How long a zygote may take to import moto (a loaded machine: tens of seconds) and fork.
FORK_TIMEOUT = 180.0
# What a server that exited left as its code: the zygote reaps it, the kit only sees it end.
EXITED = -1


class ForkedPopen:
    """The part of subprocess.Popen that ManagedProcess uses, for a process the zygote forked
    (not the kit's child: watched through a pidfd, whose end the kernel signals)."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.returncode: int | None = None
        try:
            self._fd: int | None = os.pidfd_open(pid)
        except ProcessLookupError:  # it already ended
            self._fd, self.returncode = None, EXITED

    def _ended(self, timeout: float) -> bool:
        if self.returncode is None and self._fd is not None:
            readable, _, _ = select.select([self._fd], [], [], max(timeout, 0))
            if readable:
                os.close(self._fd)
                self._fd, self.returncode = None, EXITED
        return self.returncode is not None

    def poll(self) -> int | None:
        """None while it runs, else EXITED."""
        self._ended(0)
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        """Block until it ends (subprocess.TimeoutExpired after `timeout` seconds)."""
        if not self._ended(3600.0 if timeout is None else timeout):
            raise subprocess.TimeoutExpired(f"moto pid {self.pid}", timeout or 0)
        assert self.returncode is not None
        return self.returncode


class ForkedProcess(ManagedProcess):
    """A moto server forked by the zygote: a ManagedProcess in all but how it started."""

    def __init__(self, name: str, popen: ForkedPopen, log_path: Path) -> None:  # noqa: D107
        self.name = name
        self.log_path = log_path
        self._log = log_path.open("ab")  # ManagedProcess.stop closes it
        self.confinement = None
        self.confined = None
        self.popen = popen  # type: ignore[assignment]


class Zygote:
    """The zygote process, spawned by a thread of its own that outlives every sandbox
    (PR_SET_PDEATHSIG fires when the spawning *thread* exits)."""

    def __init__(self) -> None:
        self.forked = 0  # servers forked so far (a zygote with none may be stopped)
        self._servers: list[int] = []  # their pids
        self._ready = threading.Event()
        self._popen: subprocess.Popen[str] | None = None
        self._error: BaseException | None = None
        threading.Thread(target=self._own, name="moto-zygote", daemon=True).start()
        self._ready.wait()
        if self._error is not None:
            raise self._error

    def _own(self) -> None:
        try:
            self._popen = subprocess.Popen(
                [sys.executable, "-m", "kit.sandbox.moto_zygote"], stdin=subprocess.PIPE,
                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, cwd="/",
                start_new_session=True, preexec_fn=die_with_parent)
        except BaseException as exc:  # noqa: BLE001 - raised in the asking thread
            self._error = exc
        self._ready.set()
        threading.Event().wait()  # the thread must not end while the zygote is wanted

    def fork(self, port: int, journal: Path, log: Path) -> int:
        """A moto server's pid, forked with these arguments, in its sandbox's directory."""
        assert self._popen is not None
        stdin, stdout = self._popen.stdin, self._popen.stdout
        assert stdin is not None and stdout is not None
        stdin.write(json.dumps({"port": str(port), "journal": str(journal), "log": str(log),
                                "cwd": str(log.parent)}) + "\n")
        stdin.flush()
        pid = int(_line(stdout, FORK_TIMEOUT))
        self.forked += 1
        self._servers.append(pid)
        return pid

    def idle(self) -> bool:
        """Whether none of its servers runs (then stopping it ends none: they die with it)."""
        self._servers = [pid for pid in self._servers if _running(pid)]
        return not self._servers

    def alive(self) -> bool:
        """Whether the zygote still runs."""
        return self._popen is not None and self._popen.poll() is None

    def stop(self) -> None:
        """End the zygote (its servers are their sandboxes' to stop)."""
        if self._popen is not None and self._popen.poll() is None:
            self._popen.kill()
            self._popen.wait()


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)  # the zygote reaps its servers: an ended one leaves no pid
    except ProcessLookupError:
        return False
    return True


def _line(stream: IO[str], timeout: float) -> str:
    # One line per request, so nothing is left in the stream's buffer between two.
    readable, _, _ = select.select([stream], [], [], timeout)
    if not readable:
        raise OSError(f"the moto zygote did not fork within {timeout:.0f} s")
    line = stream.readline()
    if not line:
        raise OSError("the moto zygote ended")
    return line


_LOCK = threading.Lock()
# One zygote per environment the kit had when it started a sandbox (a zygote's children
# have its environment): never stopped while its servers may run, so a few at most.
_ZYGOTES: dict[frozenset[tuple[str, str]], Zygote] = {}
MAX_ZYGOTES = 4
_OWNER = os.getpid()  # the process whose zygotes these are


def spawn(port: int, journal: Path, log: Path) -> ManagedProcess | None:
    """A moto server forked from this process's zygote, or None where none can serve
    (the caller then starts moto_main itself: the same server, importing moto anew)."""
    if os.getpid() != _OWNER:  # a fork of the kit: its zygotes (and lock) are its parent's
        return None
    key = frozenset(os.environ.items())
    with _LOCK:
        zygote = _ZYGOTES.get(key)
        try:
            if zygote is None or not zygote.alive():
                if zygote is None and len(_ZYGOTES) >= MAX_ZYGOTES and not _evict_idle():
                    return None
                zygote = _ZYGOTES[key] = Zygote()
            pid = zygote.fork(port, journal, log)
        except (OSError, ValueError):
            if zygote is not None and not zygote.forked:  # else its servers may still run
                zygote.stop()
            _ZYGOTES.pop(key, None)
            return None
    return ForkedProcess("moto", ForkedPopen(pid), log)


def _evict_idle() -> bool:
    """Stop one zygote none of whose servers runs (the environment it was made for may not
    come back); False when every zygote still has a server running."""
    for key, zygote in list(_ZYGOTES.items()):
        if zygote.idle():
            zygote.stop()
            del _ZYGOTES[key]
            return True
    return False


@atexit.register
def _stop() -> None:
    for zygote in list(_ZYGOTES.values()):
        with contextlib.suppress(Exception):
            zygote.stop()
