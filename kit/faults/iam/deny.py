"""iam_deny: a role's permissions are revoked for a window by an explicit deny, then
restored."""

from __future__ import annotations

import contextlib
import json
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from kit.faults.base import FaultKind

REVOKE_POLICY = "kit-revoke"


class DenyParams(BaseModel):
    """The actions denied to the role for the window."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    actions: list[str] = Field(default_factory=lambda: ["sqs:*"], min_length=1)


class IamDeny(FaultKind):
    """An explicit deny of `actions` on every resource, attached to the target role: every
    call of those actions by its sessions fails with AccessDenied."""

    Params = DenyParams
    targets = ("role",)
    timed = True

    def start(self) -> dict[str, Any]:
        deny = {"Version": "2012-10-17", "Statement": [
            {"Sid": "KitRevoke", "Effect": "Deny", "Action": self.params.actions,
             "Resource": "*"}]}
        self.ctx.gateway.admin_client("iam").put_role_policy(
            RoleName=self.role_name(), PolicyName=REVOKE_POLICY, PolicyDocument=json.dumps(deny))
        self.ctx.gateway.invalidate()  # the gateway caches policies: the deny applies now
        return {"target": self.ctx.roles[self.ctx.target], "policy": REVOKE_POLICY,
                "effect": f"explicit deny of {', '.join(self.params.actions)} on *"}

    def heal(self) -> dict[str, Any]:
        iam = self.ctx.gateway.admin_client("iam")
        # Already gone (someone healed it by hand) is healed.
        with contextlib.suppress(iam.exceptions.NoSuchEntityException):
            iam.delete_role_policy(RoleName=self.role_name(), PolicyName=REVOKE_POLICY)
        self.ctx.gateway.invalidate()
        return {"target": self.ctx.roles[self.ctx.target],
                "restored": f"inline policy {REVOKE_POLICY} deleted"}
