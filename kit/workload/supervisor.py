"""Runs the solution's worker processes as the worker role and restarts any that exits.

A worker command that never gets going (every slot exits CRASH_EXITS times by itself, no
incarnation stays up STARTUP_SECONDS, no order is recorded) is a crash loop: recorded with
the exit codes and the last lines of each worker's output, and the run stops early instead
of waiting out its timeouts.

Every worker starts confined (kit/sandbox/confine.py): a sandbox of its own, whose init
forwards the SIGTERM of a stop and reports the worker's own exit code or signal; a SIGKILL
(the worker_crash fault, or a stop past its grace period) ends the whole sandbox.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from kit.errors import SandboxError
from kit.recorder import Recorder
from kit.sandbox.confine import Confinement
from kit.sandbox.confined import Confined
from kit.sandbox.process import log_tail, signal_group
from kit.toolchain import runtime

RESTART_BACKOFF_MAX = 1.0
STARTUP_SECONDS = 3.0
CRASH_EXITS = 3
TAIL_LINES = 10
WORKER_PREFIX = "worker-"  # worker-<slot>#<incarnation>: the process name of each start


class NoSession(Exception):
    """`session_for` got no session for a new worker (team mode: the role's trust policy
    refuses the service, recorded by the caller): no worker starts again, the run stops."""


def spawn(command: Sequence[str], confinement: Confinement, env: dict[str, str],
          log: Path, cwd: str | None = None) -> Confined:
    """Start one of the solution's processes (a worker, a runbook) confined, its output to
    `log`, in `cwd` (default: the workspace); `python` in the contract is the worker
    runtime (Python 3.11, boto3, psycopg)."""
    python = runtime.python() or sys.executable
    argv = [python if c == "python" else c for c in command]
    with log.open("ab") as out:
        return confinement.spawn(argv, env=env, stdout=out, stderr=subprocess.STDOUT,
                                 cwd=cwd)


class Supervisor(threading.Thread):
    """Keeps `replicas` worker processes alive until stopped; every start/exit is recorded.

    Each incarnation gets a fresh role session (`session_for(name)`), so the gateway can
    attribute its calls to it (`worker-<slot>#<incarnation>`); one it cannot get
    (NoSession) stops the supervisor and the run.
    """

    def __init__(self, command: Sequence[str], confinement: Confinement, env: dict[str, str],
                 replicas: int, session_for: Callable[[str], dict[str, str]], logdir: Path,
                 recorder: Recorder, grace: float, stopping: threading.Event,
                 cwd: str | None = None) -> None:
        super().__init__(name="supervisor", daemon=True)
        self.command, self.cwd = list(command), cwd
        self.confinement, self.env, self.replicas = confinement, env, replicas
        self.session_for, self.logdir, self.recorder, self.grace = (
            session_for, logdir, recorder, grace)
        self.procs: dict[int, tuple[str, Confined]] = {}
        self.started_at: dict[int, float] = {}
        self.incarnations = [0] * replicas
        self.stopping = threading.Event()
        # Set on a crash loop: the whole run stops.
        self.run_stopping = stopping
        self.crash_looped = False
        self.refused = False  # a new worker got no session (NoSession)
        self._killed: set[str] = set()
        self._ended: set[int] = set()  # pids whose exit is recorded
        self._healthy = False
        self._early_exits: list[list[dict[str, object]]] = [[] for _ in range(replicas)]
        self._lock = threading.Lock()
        self.error: Exception | None = None

    def _start(self, slot: int) -> None:
        name = f"{WORKER_PREFIX}{slot}#{self.incarnations[slot]}"
        self.incarnations[slot] += 1
        env = {**self.env, **self.session_for(name)}
        proc = spawn(self.command, self.confinement, env, self.logdir / f"worker-{slot}.log",
                     self.cwd)
        with self._lock:
            self.procs[slot] = (name, proc)
            self.started_at[slot] = time.monotonic()
        self.recorder.record("kit", "worker_start", worker=name, pid=proc.pid)

    def run(self) -> None:
        try:
            for slot in range(self.replicas):
                self._start(slot)
            backoff = [0.0] * self.replicas
            while not self.stopping.wait(0.05):
                for slot in range(self.replicas):
                    name, proc = self.procs[slot]
                    code = proc.poll()
                    if code is None:
                        if time.monotonic() - self.started_at[slot] >= STARTUP_SECONDS:
                            self._healthy = True
                        continue
                    refused = self._refused(proc)
                    self._exited(name, proc, code, refused)
                    if not proc.started and not refused:  # the sandbox failed, not the worker
                        raise SandboxError(
                            f"the sandbox of {name} did not start (exit {code}); log "
                            f"{self.logdir / f'worker-{slot}.log'}:\n"
                            f"{log_tail(self.logdir / f'worker-{slot}.log')}")
                    if self._crash_loop(slot, name, code):
                        return
                    # A worker that dies at once is restarted with growing backoff.
                    backoff[slot] = min(max(backoff[slot] * 2, 0.05), RESTART_BACKOFF_MAX)
                    if not self.stopping.wait(backoff[slot]):
                        self._start(slot)
        except NoSession:  # the solution's: recorded by session_for, judged from there
            self.refused = True
            self.run_stopping.set()
        except Exception as exc:  # noqa: BLE001 - reported as a run error
            self.error = exc
            self.run_stopping.set()  # nothing more to wait for: the run ends as an error
        finally:
            # From this thread: workers die with the thread that started them
            # (PR_SET_PDEATHSIG), so it must outlive their grace period.
            self._stop_all()

    def _refused(self, proc: Confined) -> str | None:
        """Why a sandbox that did not start is the solution's doing, if it is: it failed on
        the task limit the run's workers share, which only their own processes fill (a fork
        bomb), so the start counts as that worker's exit, not as the kit's error."""
        group = self.confinement.group
        if proc.started or group is None or not group.refused_forks():
            return None
        return f"the workers' task limit ({self.confinement.limits.processes}) was full"

    def _crash_loop(self, slot: int, name: str, code: int) -> bool:
        """Count an early exit of `slot`; record and stop the run on a crash loop."""
        if self._healthy or name in self._killed or self.recorder.count("recorded"):
            self._healthy = True
            return False
        lived = round(time.monotonic() - self.started_at[slot], 2)
        self._early_exits[slot].append({"worker": name, "code": code, "lived_seconds": lived})
        if min(len(exits) for exits in self._early_exits) < CRASH_EXITS:
            return False
        self.crash_looped = True
        self.run_stopping.set()  # before the record: waiters woken by it must see the stop
        self.recorder.record("kit", "crash_loop", exits=sum(self._early_exits, []), output={
            f"worker-{s}": self._tail(s) for s in range(self.replicas)})
        return True

    def _tail(self, slot: int) -> list[str]:
        log = self.logdir / f"worker-{slot}.log"
        lines = log.read_text(errors="replace").splitlines() if log.exists() else []
        return lines[-TAIL_LINES:]

    def _exited(self, name: str, proc: Confined, code: int, refused: str | None = None,
                by: str | None = None) -> None:
        if proc.pid in self._ended:
            return
        self._ended.add(proc.pid)
        signal_group(proc.pid, signal.SIGKILL)  # its children, if any, go with it
        value: dict[str, object] = (
            {"code": code} if code >= 0 else {"signal": signal.Signals(-code).name})
        if refused:
            value["refused"] = refused
        by = by or ("fault" if name in self._killed else None)
        if by:
            value["by"] = by
        self.recorder.record("kit", "worker_exit", worker=name, pid=proc.pid, **value)

    @staticmethod
    def owns(process: str) -> bool:
        """Whether `process` (a name the gateway and the history use) is one of its workers,
        of any incarnation: the sessions they hold, and any they assume from them."""
        return process.startswith(WORKER_PREFIX)

    def holders(self) -> dict[str, int]:
        """Live worker process names -> pid."""
        with self._lock:
            return {name: proc.pid for name, proc in self.procs.values() if proc.poll() is None}

    def kill(self, name: str) -> bool:
        """SIGKILL the worker `name` (a fault); the supervisor restarts it."""
        with self._lock:
            found = [proc for n, proc in self.procs.values() if n == name]
        if not found or found[0].poll() is not None:
            return False
        self._killed.add(name)
        found[0].kill()
        return True

    def stop(self) -> None:
        """Stop restarting; SIGTERM every worker, SIGKILL after the grace period."""
        self.stopping.set()
        if self.is_alive():
            self.join()

    def _stop_all(self) -> None:
        with self._lock:
            procs = list(self.procs.values())
        for _, proc in procs:
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + self.grace
        for name, proc in procs:
            try:
                proc.wait(timeout=max(0.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
            self._exited(name, proc, proc.returncode, by="stop")
