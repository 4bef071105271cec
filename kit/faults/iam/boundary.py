"""boundary_tightened: a role's permissions boundary is tightened (or one is attached) for a
window, then the original boundary (or none) is put back.

The boundary during the window is the role's own boundary without the grants of `revoke`
(documents.without_grants), or, for a role without one, a boundary that allows everything
but `revoke`. A boundary only caps: an action it does not allow is implicitly denied to
the role's identity policies, and to resource policies that name the role (IAM user guide,
"Permissions boundaries for IAM entities", and "Policy evaluation logic": a resource-based
policy that names the role session itself is not capped).
"""

from __future__ import annotations

import contextlib
import json
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from kit.faults.base import FaultContext, FaultKind
from kit.faults.iam.documents import VERSION, parse, without_grants

ALLOW_ALL = {"Version": VERSION, "Statement": [
    {"Effect": "Allow", "Action": "*", "Resource": "*"}]}


class BoundaryParams(BaseModel):
    """What the tightened boundary no longer allows."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    revoke: list[str] = Field(min_length=1)


class BoundaryTightened(FaultKind):
    """The target role's boundary stops allowing `revoke` for the window."""

    Params = BoundaryParams
    targets = ("role",)
    timed = True

    def __init__(self, ctx: FaultContext) -> None:
        super().__init__(ctx)
        self.before: str | None = None
        self.during: str | None = None

    def start(self) -> dict[str, Any]:
        iam = self.ctx.gateway.admin_client("iam")
        role = iam.get_role(RoleName=self.role_name())["Role"]
        self.before = role.get("PermissionsBoundary", {}).get("PermissionsBoundaryArn")
        current = ALLOW_ALL
        if self.before:
            version = iam.get_policy(PolicyArn=self.before)["Policy"]["DefaultVersionId"]
            current = parse(iam.get_policy_version(PolicyArn=self.before, VersionId=version)[
                "PolicyVersion"]["Document"])
        tightened = without_grants(current, self.params.revoke)
        self.during = iam.create_policy(
            PolicyName=f"kit-boundary-{self.role_name()}"[:128], Path="/kit/",
            PolicyDocument=json.dumps(tightened))["Policy"]["Arn"]
        iam.put_role_permissions_boundary(RoleName=self.role_name(),
                                          PermissionsBoundary=self.during)
        self.ctx.gateway.invalidate()
        return {"target": role["Arn"], "boundary_before": self.before,
                "boundary_during": self.during, "revoked": self.params.revoke,
                "effect": ("boundary tightened" if self.before else "boundary attached")
                + f": {', '.join(self.params.revoke)} no longer allowed"}

    def heal(self) -> dict[str, Any]:
        iam = self.ctx.gateway.admin_client("iam")
        if self.before:
            iam.put_role_permissions_boundary(RoleName=self.role_name(),
                                              PermissionsBoundary=self.before)
        else:
            with contextlib.suppress(iam.exceptions.NoSuchEntityException):
                iam.delete_role_permissions_boundary(RoleName=self.role_name())
        if self.during:
            with contextlib.suppress(iam.exceptions.NoSuchEntityException):
                iam.delete_policy(PolicyArn=self.during)
        self.ctx.gateway.invalidate()
        deleted, self.during = self.during, None
        return {"target": self.ctx.roles[self.ctx.target], "boundary_restored": self.before,
                "deleted": deleted}
