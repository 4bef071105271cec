"""An execution environment: the handler run confined, invoked once per batch, killed at
the function's timeout.

Each environment is a sandbox of its own (kit/sandbox/confine.py), as a worker replica is.
The Lambda service reuses an environment for the invocations that follow ("Lambda
execution environment lifecycle": Init once, then Invoke per event; what the handler made
at import, such as its clients, stays) and ends it on a timeout, a crash or a runtime
error, after which the next invocation starts a new one (Init again). Reuse matters for
the verdict: an environment made anew per invocation pays Python's and boto3's start-up
inside every invocation's timeout, which Lambda does not. The kit (the trusted poller) only
writes the event to the sandbox's stdin and reads one answer line per invocation from its
stdout: the handler cannot touch the kit's record, its queue calls or other environments.
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kit.lambdas import config
from kit.sandbox.confine import Confinement
from kit.sandbox.confined import Confined
from kit.toolchain import runtime

BOOTSTRAP = (Path(__file__).parent / "bootstrap.py").read_text()
MAX_ANSWER = 6 * 1024 * 1024  # Lambda's synchronous response payload limit (quotas page)
INIT_SECONDS = 10.0  # Lambda's Init phase limit ("Lambda execution environment lifecycle")
EXIT_SECONDS = 2.0  # for the runtime to exit once its stdin is closed


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


class Environment:
    """One execution environment: a confined runtime that Init starts on the first
    invocation and that each later invocation reuses, until a timeout, a crash or a kill
    ends it (`ended`)."""

    def __init__(self, confinement: Confinement, env: dict[str, str], log: Path) -> None:
        self.confinement, self.env, self.log = confinement, env, log
        self.proc: Confined | None = None
        self.batch: list[dict[str, Any]] = []  # the messages of the running invocation
        self.started = 0.0  # when the running invocation's Invoke phase began
        self.ended = False
        self._answer = b""

    def invoke(self, event: dict[str, Any], meta: dict[str, Any], timeout: float) -> Outcome:
        """Run the handler over `event`: a cold start gets INIT_SECONDS for Init (sandbox
        start, handler import), Lambda's init limit; the Invoke phase `timeout`, after
        which the environment is killed ("Lambda execution environment lifecycle")."""
        assert not self.ended
        cold = self.proc is None
        if cold:
            self._spawn()
        assert self.proc is not None and self.proc.popen.stdin is not None
        self.started = time.monotonic()
        try:
            self.proc.popen.stdin.write((json.dumps({"event": event, "context": meta})
                                         + "\n").encode())
            self.proc.popen.stdin.flush()
        except OSError:  # the runtime is gone
            return self._end("Runtime exited before the invocation")
        if cold:
            line = self._line(time.monotonic() + INIT_SECONDS)
            if line is None:
                return self._end(f"Init timed out after {INIT_SECONDS:.2f} seconds")
            if line != b"ready":  # an init error: the runtime answered and exits
                outcome = self._outcome(line)
                self._end("")
                return outcome
            self.started = time.monotonic()
        line = self._line(self.started + timeout)
        if line is None:
            return self._end(f"Task timed out after {timeout:.2f} seconds")
        if not line:
            return self._end("Runtime exited without an answer")
        return self._outcome(line)

    def close(self) -> None:
        """End the environment: stdin closed (the runtime exits), else its sandbox killed."""
        if self.proc is not None and not self.ended:
            self._end("")

    def _spawn(self) -> None:
        python = runtime.python() or sys.executable
        with self.log.open("ab") as log:
            self.proc = self.confinement.spawn(
                [python, "-c", BOOTSTRAP], env=self.env, stdin=subprocess.PIPE,
                stdout=subprocess.PIPE, stderr=log)

    def _line(self, deadline: float) -> bytes | None:
        """The next answer line; b"" when the runtime ended without one, None at the
        deadline (bounded: a line longer than MAX_ANSWER ends it too)."""
        assert self.proc is not None and self.proc.popen.stdout is not None
        fd = self.proc.popen.stdout.fileno()
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

    def _outcome(self, line: bytes) -> Outcome:
        try:
            answer = json.loads(line)
        except ValueError:
            answer = None
        if not isinstance(answer, dict):
            self._end("")  # a runtime that answers garbage is not reused
            return Outcome(False, error="Runtime answered no valid response",
                           seconds=self._seconds())
        if not answer.get("ok"):
            return Outcome(False, error=str(answer.get("error", "function error"))[:1000],
                           seconds=self._seconds())
        return Outcome(True, answer.get("response"), seconds=self._seconds())

    def _end(self, error: str) -> Outcome:
        """End the environment: let the runtime exit on a closed stdin (after an answer),
        else (a timeout, a crash) kill its sandbox at once."""
        assert self.proc is not None
        seconds = self._seconds()
        self.ended = True
        popen = self.proc.popen
        for pipe in (popen.stdin, popen.stdout):
            if pipe is not None:
                with contextlib.suppress(OSError):
                    pipe.close()
        try:
            self.proc.wait(timeout=0 if error else EXIT_SECONDS)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        return Outcome(False, error=error, seconds=seconds)

    def _seconds(self) -> float:
        return round(time.monotonic() - self.started, 3)
