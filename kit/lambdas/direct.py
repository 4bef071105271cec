"""Synchronous invocations of a deployed function by a service the kit plays (Secrets
Manager invoking a rotation function): one execution environment per function, reused by
the invocations that follow until it ends ("Lambda execution environment lifecycle"), each
with a fresh session of the function's execution role."""

from __future__ import annotations

import threading
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

from botocore.exceptions import BotoCoreError, ClientError

from kit import aws
from kit.errors import InputError
from kit.lambdas import config, package
from kit.lambdas.invoke import Environment, Outcome, lambda_env
from kit.sandbox.confine import Confinement

SESSION = "function"  # sessions are named function-<name>#<n> (the gateway's record)


class Invoker:
    """Invoke a function by ARN with an event, as Lambda's Invoke (RequestResponse) does."""

    def __init__(self, admin: Any, confinement: Confinement, endpoint_env: dict[str, str],
                 session_of: Callable[[str, str], aws.Credentials], workspace: Path,
                 root: Path, logdir: Path) -> None:
        self.admin, self.confinement, self.endpoint_env = admin, confinement, endpoint_env
        self.session_of, self.workspace, self.root = session_of, workspace, root
        self.logdir = logdir
        self._environments: dict[str, tuple[config.FunctionConfig, str, Environment]] = {}
        self._count = 0
        self._lock = threading.Lock()

    def __call__(self, arn: str, event: dict[str, Any]) -> Outcome:
        """The invocation's outcome; a function that cannot be run (not deployed, its role
        not assumable) is a failed invocation, as Lambda answers it."""
        with self._lock:
            try:
                function, code, environment = self._environment(arn)
            except (ClientError, BotoCoreError, InputError) as exc:
                return Outcome(False, error=f"the function cannot be invoked: {exc}"[:1000])
            outcome = environment.invoke(event, {
                "code": code, "request_id": str(uuid.uuid4()), "function_name": function.name,
                "function_arn": function.arn, "memory": function.memory,
                "timeout_ms": function.timeout * 1000,
                "log_group": f"/aws/lambda/{function.name}"}, function.timeout)
            if environment.ended:
                self._environments.pop(arn, None)
            return outcome

    def _environment(self, arn: str) -> tuple[config.FunctionConfig, str, Environment]:
        if arn not in self._environments:
            function, _ = config.read(self.admin, arn, f"function {arn}")
            code = package.code_dir(self.workspace, None, function.name, self.root)
            name = f"{SESSION}-{function.name}#{self._count}"
            self._count += 1
            creds = self.session_of(function.role, name)
            self._environments[arn] = (function, code, Environment(
                self.confinement, lambda_env(function, self.endpoint_env, {
                    "AWS_ACCESS_KEY_ID": creds.access_key_id,
                    "AWS_SECRET_ACCESS_KEY": creds.secret_access_key,
                    "AWS_SESSION_TOKEN": creds.token or ""}),
                self.logdir / f"lambda-{function.name}.log"))
        return self._environments[arn]

    def close(self) -> None:
        """End every environment."""
        with self._lock:
            for _, _, environment in self._environments.values():
                environment.close()
            self._environments.clear()
