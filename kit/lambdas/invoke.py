"""One invocation: the handler run confined, killed at the function's timeout.

Each invocation gets a sandbox of its own (kit/sandbox/confine.py), as the worker replicas
do: the Lambda service runs a function in an execution environment it may reuse or not
("Lambda execution environment lifecycle"); a fresh one per invocation is one of the
behaviours it documents, and a timeout or a crash ends the environment there too. The kit
(the trusted poller) only hands the sandbox the event on stdin and reads one answer line
from its stdout file: the handler cannot touch the kit's record, its queue calls or other
invocations.
"""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from kit.lambdas import config
from kit.sandbox.confine import Confinement
from kit.sandbox.confined import Confined
from kit.toolchain import runtime

BOOTSTRAP = (Path(__file__).parent / "bootstrap.py").read_text()
MAX_ANSWER = 6 * 1024 * 1024  # Lambda's synchronous response payload limit (quotas page)
INIT_SECONDS = 10.0  # Lambda's Init phase limit ("Lambda execution environment lifecycle")
EXIT_SECONDS = 2.0  # for the runtime to exit once it has answered


@dataclass(frozen=True)
class Outcome:
    """How one invocation ended: ok with the handler's response, or why it failed."""

    ok: bool
    response: Any = None
    error: str = ""
    seconds: float = 0.0


def lambda_env(function: config.FunctionConfig, endpoint_env: dict[str, str],
               credentials: dict[str, str]) -> dict[str, str]:
    """The invocation's environment: the function's variables, then what Lambda sets
    ("Using Lambda environment variables": the reserved variables, the execution role's
    credentials) and the kit's endpoint; reserved names win over the function's."""
    return {**function.env, **endpoint_env, **credentials,
            "_HANDLER": function.handler,
            "AWS_LAMBDA_FUNCTION_NAME": function.name,
            "AWS_LAMBDA_FUNCTION_VERSION": "$LATEST",
            "AWS_LAMBDA_FUNCTION_MEMORY_SIZE": str(function.memory),
            "AWS_LAMBDA_LOG_GROUP_NAME": f"/aws/lambda/{function.name}",
            "AWS_EXECUTION_ENV": f"AWS_Lambda_{function.runtime}"}


class Invocation:
    """One confined run of the handler over one event (start, then wait or kill)."""

    def __init__(self, confinement: Confinement, env: dict[str, str], spool: Path,
                 log: Path, request_id: str) -> None:
        self.confinement, self.env, self.log = confinement, env, log
        self.input = spool / f"{request_id}.in"
        self.proc: Confined | None = None
        self.batch: list[dict[str, Any]] = []  # the messages it was invoked with
        self.started = 0.0  # when the Invoke phase began (the handler was imported)
        self._answer = b""

    def start(self, event: dict[str, Any], meta: dict[str, Any]) -> Confined:
        """Spawn the sandbox with the event on its stdin, its answer on a pipe."""
        self.input.write_text(json.dumps({"event": event, "context": meta}))
        python = runtime.python() or sys.executable
        try:
            with self.input.open("rb") as stdin, self.log.open("ab") as log:
                self.proc = self.confinement.spawn(
                    [python, "-c", BOOTSTRAP], env=self.env, stdin=stdin,
                    stdout=subprocess.PIPE, stderr=log)
        finally:
            self.input.unlink(missing_ok=True)  # the sandbox holds it open already
        self.started = time.monotonic()
        return self.proc

    def wait(self, timeout: float) -> Outcome:
        """The outcome: the Init phase (sandbox start, handler import) has INIT_SECONDS,
        Lambda's init limit; the Invoke phase `timeout`, after which the sandbox is killed
        ("Lambda execution environment lifecycle")."""
        assert self.proc is not None and self.proc.popen.stdout is not None
        out = self.proc.popen.stdout
        try:
            line = self._line(out, time.monotonic() + INIT_SECONDS)
            if line is None:
                return self._end(f"Init timed out after {INIT_SECONDS:.2f} seconds")
            if line != b"ready":
                return self._answered(line)
            self.started = time.monotonic()
            line = self._line(out, self.started + timeout)
            if line is None:
                return self._end(f"Task timed out after {timeout:.2f} seconds")
            return self._answered(line)
        finally:
            out.close()

    def _line(self, out: IO[bytes], deadline: float) -> bytes | None:
        """The next answer line; b"" when the runtime ended without one, None at the
        deadline (bounded: a line longer than MAX_ANSWER ends it too)."""
        fd = out.fileno()
        while b"\n" not in self._answer:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            ready, _, _ = select.select([fd], [], [], left)
            if not ready:
                continue
            chunk = os.read(fd, 65536)
            if not chunk or len(self._answer) > MAX_ANSWER:
                return b""
            self._answer += chunk
        line, _, self._answer = self._answer.partition(b"\n")
        return line

    def _answered(self, line: bytes) -> Outcome:
        outcome = self._outcome(line)
        self._end("")
        return outcome

    def _outcome(self, line: bytes) -> Outcome:
        try:
            answer = json.loads(line) if line else None
        except ValueError:
            answer = None
        if not isinstance(answer, dict):
            return Outcome(False, error="Runtime answered no valid response",
                           seconds=self._seconds())
        if not answer.get("ok"):
            return Outcome(False, error=str(answer.get("error", "function error"))[:1000],
                           seconds=self._seconds())
        return Outcome(True, answer.get("response"), seconds=self._seconds())

    def _end(self, error: str) -> Outcome:
        """Let the runtime exit (it does once it has answered), else kill its sandbox."""
        assert self.proc is not None
        seconds = self._seconds()
        try:
            self.proc.wait(timeout=0 if error else EXIT_SECONDS)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        return Outcome(False, error=error, seconds=seconds)

    def _seconds(self) -> float:
        return round(time.monotonic() - self.started, 3)
