"""policy_rollback: a customer managed policy is rolled back to an older version for a
window (SetDefaultPolicyVersion), then rolled forward again.

The older version is the current one as it read before `without` was granted
(documents.without_grants): the fault publishes it as a non-default version, makes it the
default, and at heal makes the original version the default again and deletes the one it
published. IAM applies the default version of a managed policy (IAM user guide, "Versioning
IAM policies": "when you set the default version ... it immediately affects all IAM users,
groups, and roles that the policy is attached to"), so every role the policy is attached
to, as an identity policy or as its permissions boundary, is affected at once.

Targets: a `policy` resource (e.g. an organisation's boundary from the baseline), or a
`role`, whose attached customer managed policies that grant any of `without` are rolled
back. A target with nothing to roll back (a role with only inline policies) is recorded
as such and left alone: the solution is not exposed to this fault.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from kit.faults.base import FaultBroken, FaultContext, FaultKind
from kit.faults.iam.documents import parse, statements, without_grants

MAX_VERSIONS = 5  # IAM keeps at most five versions of a managed policy


class RollbackParams(BaseModel):
    """What the older version did not grant yet."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    without: list[str] = Field(min_length=1)


class PolicyRollback(FaultKind):
    """The target's managed policies default to a version without `without` for the window."""

    Params = RollbackParams
    targets = ("policy", "role")
    timed = True

    def __init__(self, ctx: FaultContext) -> None:
        super().__init__(ctx)
        self.rolled: list[dict[str, str]] = []  # {arn, default, published}

    def _candidates(self) -> list[str]:
        if self.ctx.target.startswith("policy."):
            return [self.value("arn")]
        iam = self.ctx.gateway.admin_client("iam")
        attached = iam.list_attached_role_policies(RoleName=self.role_name())[
            "AttachedPolicies"]
        return [p["PolicyArn"] for p in attached if ":aws:policy/" not in p["PolicyArn"]]

    def start(self) -> dict[str, Any]:
        iam = self.ctx.gateway.admin_client("iam")
        without = self.params.without
        untouched = []
        for arn in self._candidates():
            versions = iam.list_policy_versions(PolicyArn=arn)["Versions"]
            default = next(v["VersionId"] for v in versions if v["IsDefaultVersion"])
            current = parse(iam.get_policy_version(PolicyArn=arn, VersionId=default)[
                "PolicyVersion"]["Document"])
            older = without_grants(current, without)
            if statements(older) == statements(current):
                untouched.append(arn)
                continue
            if len(versions) >= MAX_VERSIONS:
                raise FaultBroken(f"policy_rollback: {arn} already has {len(versions)} "
                                  "versions (IAM's limit): no room to publish the older one")
            published = iam.create_policy_version(PolicyArn=arn, PolicyDocument=json.dumps(
                older), SetAsDefault=False)["PolicyVersion"]["VersionId"]
            iam.set_default_policy_version(PolicyArn=arn, VersionId=published)
            self.rolled.append({"arn": arn, "default": default, "published": published})
        self.ctx.gateway.invalidate()
        return {"target": self.ctx.target, "without": without,
                "rolled_back": [{"policy": r["arn"], "default_before": r["default"],
                                 "default_during": r["published"]} for r in self.rolled],
                "effect": (f"default version without {', '.join(without)}" if self.rolled
                           else f"nothing to roll back: no customer managed policy of "
                                f"{self.ctx.target} grants {', '.join(without)}"),
                "untouched": untouched}

    def heal(self) -> dict[str, Any]:
        iam = self.ctx.gateway.admin_client("iam")
        for rolled in self.rolled:
            iam.set_default_policy_version(PolicyArn=rolled["arn"], VersionId=rolled["default"])
            iam.delete_policy_version(PolicyArn=rolled["arn"], VersionId=rolled["published"])
        self.ctx.gateway.invalidate()
        restored = [{"policy": r["arn"], "default": r["default"],
                     "deleted_version": r["published"]} for r in self.rolled]
        self.rolled = []
        return {"target": self.ctx.target, "restored": restored}
