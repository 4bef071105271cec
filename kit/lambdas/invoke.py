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
        self.input, self.output = spool / f"{request_id}.in", spool / f"{request_id}.out"
        self.proc: Confined | None = None
        self.started = 0.0

    def start(self, event: dict[str, Any], meta: dict[str, Any]) -> Confined:
        """Spawn the sandbox with the event on its stdin."""
        self.input.write_text(json.dumps({"event": event, "context": meta}))
        python = runtime.python() or sys.executable
        with self.input.open("rb") as stdin, self.output.open("wb") as out, \
                self.log.open("ab") as log:
            self.proc = self.confinement.spawn([python, "-c", BOOTSTRAP], env=self.env,
                                               stdin=stdin, stdout=out, stderr=log)
        self.started = time.monotonic()
        return self.proc

    def wait(self, timeout: float) -> Outcome:
        """The outcome, the sandbox killed once `timeout` seconds have passed."""
        assert self.proc is not None
        try:
            code = self.proc.wait(timeout=max(0.0, self.started + timeout - time.monotonic()))
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            return self._failed(f"Task timed out after {timeout:.2f} seconds")
        finally:
            self.input.unlink(missing_ok=True)
        return self._read(code)

    def _read(self, code: int) -> Outcome:
        with self.output.open("rb") as out:
            line = out.read(MAX_ANSWER + 1).split(b"\n", 1)[0]
        self.output.unlink(missing_ok=True)
        if code != 0:
            return self._failed(f"Runtime exited ({'signal ' + str(-code) if code < 0 else code})")
        try:
            answer = json.loads(line)
        except ValueError:
            return self._failed("Runtime answered no valid response")
        if not isinstance(answer, dict) or len(line) > MAX_ANSWER:
            return self._failed("Runtime answered no valid response")
        if not answer.get("ok"):
            return self._failed(str(answer.get("error", "function error"))[:1000])
        return Outcome(True, answer.get("response"), seconds=self._seconds())

    def _failed(self, error: str) -> Outcome:
        self.output.unlink(missing_ok=True)
        return Outcome(False, error=error, seconds=self._seconds())

    def _seconds(self) -> float:
        return round(time.monotonic() - self.started, 3)
