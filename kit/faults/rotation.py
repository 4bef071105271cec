"""Secret rotation (drills): Secrets Manager rotates a secret with its rotation function
while the application runs.

What it follows (Secrets Manager User Guide, "Rotation by Lambda function" and "Lambda
rotation functions"; API reference, RotateSecret): a rotation is one ClientRequestToken,
whose version Secrets Manager makes empty and labelled AWSPENDING (RotateSecret, by the
kit's admin), then four invocations of the secret's rotation function (RotationLambdaARN,
while RotationEnabled), in order, with
`{"Step": ..., "SecretId": <the secret's ARN>, "ClientRequestToken": <token>}`:
createSecret (the function makes the new version, labelled AWSPENDING), setSecret (it sets
the new credentials in the database), testSecret (it logs in with them), finishSecret (it
moves AWSCURRENT to the new version; AWSPREVIOUS follows the old one). A step that fails
ends the rotation (AWS retries it later; the drill's rotations end there).

The drill's rotations are event-triggered, never timed: before each step, and after the
last, the fault waits until the application has logged in again (its next connection), so
that every window between two steps is seen by at least one login, whatever the machine's
speed. Before the first rotation the fault keeps the secret's current value; when it heals,
it logs in with those first credentials once: whether they were revoked is then recorded.
Token values are drawn from the run's seed.
"""

from __future__ import annotations

import json
import random
import uuid
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field

from kit.faults.base import FaultBroken, FaultKind, wait_for
from kit.faults.hooks import RotationHooks

if TYPE_CHECKING:
    pass

STEPS = ("createSecret", "setSecret", "testSecret", "finishSecret")


class Params(BaseModel):
    """secret_rotation's params."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    rotations: int = Field(2, ge=1, le=5)
    login_timeout_seconds: float = Field(20, gt=0, le=120)  # for the application's next login


def labels(secrets: Any, arn: str) -> dict[str, list[str]]:
    """Each version of the secret -> its staging labels (versions without one left out)."""
    versions = secrets.list_secret_version_ids(SecretId=arn)["Versions"]
    return {v["VersionId"]: sorted(v.get("VersionStages", [])) for v in versions
            if v.get("VersionStages")}


class SecretRotation(FaultKind):
    """`rotations` rotations of the target secret by its rotation function, one after the
    other, while the application writes."""

    Params = Params
    targets = ("secret",)

    @property
    def hooks(self) -> RotationHooks:
        if self.ctx.rotation is None:
            raise FaultBroken("secret_rotation rotates the application's credentials: it "
                              "runs in drills whose application reads them from the secret")
        return self.ctx.rotation

    def start(self) -> dict[str, Any]:
        hooks, arn = self.hooks, self.value("arn")
        described = hooks.secrets.describe_secret(SecretId=arn)
        self.function = (described.get("RotationLambdaARN") or None
                         if described.get("RotationEnabled") else None)
        current = hooks.secrets.get_secret_value(SecretId=arn)
        self.first: dict[str, Any] = {"version": current["VersionId"],
                                      "value": current.get("SecretString") or ""}
        return {"target": self.ctx.target, "function": self.function,
                "rotations": self.params.rotations, "first_version": self.first["version"]}

    def window(self) -> None:
        rng = random.Random(self.ctx.seed)
        for number in range(self.params.rotations):
            token = str(uuid.UUID(int=rng.getrandbits(128), version=4))
            if self.ctx.stopping.is_set() or not self._rotate(number, token):
                return

    def _rotate(self, number: int, token: str) -> bool:
        """One rotation; whether every step succeeded (recorded as a `rotation` op)."""
        hooks, arn, recorder = self.hooks, self.value("arn"), self.ctx.recorder
        before = labels(hooks.secrets, arn)
        failed = ""
        if self.function is None:
            failed = "rotation is not configured (RotationEnabled with a RotationLambdaARN)"
        else:  # as Secrets Manager starts one: the token's version, empty, AWSPENDING
            hooks.secrets.rotate_secret(SecretId=arn, ClientRequestToken=token)
        for step in STEPS if not failed else ():
            self._next_login()
            outcome = hooks.invoke(self.function or "", {
                "Step": step, "SecretId": arn, "ClientRequestToken": token})
            recorder.record("kit", "rotation_step", type="ok" if outcome.ok else "fail",
                            rotation=number, step=step, token=token, error=outcome.error)
            if not outcome.ok:
                failed = f"{step}: {outcome.error}"
                break
        self._next_login()
        recorder.record("kit", "rotation", type="fail" if failed else "ok", rotation=number,
                        token=token, before=before, after=labels(hooks.secrets, arn),
                        error=failed)
        return not failed

    def _next_login(self) -> None:
        """Until the application has tried to log in again (bounded)."""
        app, seen = self.hooks.app, self.hooks.app.attempts
        wait_for(self.ctx, lambda: app.attempts > seen, self.params.login_timeout_seconds,
                 "the application's next login")

    def heal(self) -> dict[str, Any] | None:
        # Nothing to undo (a rotation is not rolled back); what is recorded is whether the
        # first credentials still log in.
        first = getattr(self, "first", None)
        if first is None:
            return None
        try:
            value = json.loads(first["value"])
        except ValueError:
            value = None
        error = self.hooks.login(value) if isinstance(value, dict) else "not JSON"
        self.ctx.recorder.record("kit", "first_credentials_login",
                                 type="fail" if error else "ok", version=first["version"],
                                 error=error)
        return None
