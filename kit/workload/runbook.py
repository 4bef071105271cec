"""Runs the solution's runbook when a fault reports an incident: once, as the runbook's role,
with the incident as JSON in INCIDENT, confined like every solution process, bounded.

The incident op is recorded as the runbook gets it (its time starts the RTO clock); the
exit (code, or killed at the timeout, and the last lines it printed) as a runbook_exit op.
Every AWS call it makes goes through the gateway, which records it (authz ops under the
process name "runbook"). When the application was put in maintenance for the incident,
it resumes as the runbook exits.
"""

from __future__ import annotations

import json
import queue
import subprocess
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from kit.errors import SandboxError
from kit.recorder import Recorder
from kit.sandbox.confine import Confinement
from kit.sandbox.confined import Confined
from kit.workload.supervisor import spawn

TAIL_LINES = 15
PROCESS = "runbook"


class RunbookRunner(threading.Thread):
    """Waits for an incident, runs the runbook for it, records both."""

    def __init__(self, command: Sequence[str], confinement: Confinement,
                 env: Callable[[], dict[str, str]], log: Path, recorder: Recorder,
                 timeout: float, on_exit: Callable[[], None]) -> None:
        super().__init__(name="runbook", daemon=True)
        self.command, self.confinement, self.env, self.log = list(command), confinement, env, log
        self.recorder, self.timeout, self.on_exit = recorder, timeout, on_exit
        self.incidents: queue.Queue[tuple[str, dict[str, Any]] | None] = queue.Queue()
        self.finished = threading.Event()  # the runbook ran and exited (or was killed)
        self.reported = threading.Event()
        self.error: Exception | None = None
        self._proc: Confined | None = None

    def report(self, fault: str, incident: dict[str, Any]) -> None:
        """A fault reports its incident (called from the nemesis)."""
        self.incidents.put((fault, incident))

    def stop(self) -> None:
        """Kill a runbook still running and end the thread."""
        self.incidents.put(None)
        proc = self._proc
        if proc is not None:
            proc.kill()  # the whole sandbox
        if self.ident is not None:
            self.join(timeout=30)

    def run(self) -> None:
        try:
            item = self.incidents.get()
            if item is None:
                return
            fault, incident = item
            self.recorder.record("kit", "incident", fault=fault, detail=incident)
            self._signal(self.reported)
            env = {**self.env(), "INCIDENT": json.dumps(incident)}
            self._proc = spawn(self.command, self.confinement, env, self.log)
            timed_out = False
            try:
                code: int | None = self._proc.wait(timeout=self.timeout)
            except subprocess.TimeoutExpired:
                timed_out, code = True, None
            self._proc.kill()  # its sandbox, and whatever it left behind
            self._proc.wait()
            if not self._proc.started:  # the sandbox failed, not the runbook: the kit's error
                raise SandboxError(f"the runbook's sandbox did not start (exit {code}): "
                                   + "\n".join(self._tail()))
            self.recorder.record("kit", "runbook_exit", code=code, timed_out=timed_out,
                                 output=self._tail())
        except Exception as exc:  # noqa: BLE001 - reported as a run error
            self.error = exc
        finally:
            self._signal(self.finished)
            self.on_exit()

    def _signal(self, event: threading.Event) -> None:
        # Set, then wake whoever waits on the recorder for it (kit.run.drill).
        event.set()
        with self.recorder.changed:
            self.recorder.changed.notify_all()

    def _tail(self) -> list[str]:
        if not self.log.exists():
            return []
        return self.log.read_text(errors="replace").splitlines()[-TAIL_LINES:]
