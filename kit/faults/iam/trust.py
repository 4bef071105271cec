"""trust_narrowed: a role's trust policy is narrowed to one other principal for a window, so
the harness can no longer assume it; then the original trust policy is put back.

Sessions that exist keep working: a trust policy is evaluated when a role is assumed, and
"temporary security credentials are valid until they expire" (IAM user guide, "Disabling
permissions for temporary security credentials"; ending them early takes a deny policy,
"Revoke IAM role temporary security credentials"). What is refused is every new AssumeRole:
a worker restarted in the window, a role chained through the gateway. The fault proves
that it holds: as the harness, it asks the gateway to assume the role when it starts (and
is refused) and when it heals (and is allowed), and both decisions are in the history.
"""

from __future__ import annotations

import json
from typing import Any

from botocore.exceptions import ClientError
from pydantic import BaseModel, ConfigDict

from kit import aws
from kit.faults.base import FaultContext, FaultKind
from kit.faults.iam.documents import VERSION, parse

PROBE_PROCESS = "kit"


class TrustParams(BaseModel):
    """The only principal the role trusts during the window (an ARN; default: a role of
    the account's platform team that the workload never uses)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    trusted: str = f"arn:aws:iam::{aws.ACCOUNT_ID}:role/kit-platform-deployer"


class TrustNarrowed(FaultKind):
    """The target role trusts only `trusted` for the window."""

    Params = TrustParams
    targets = ("role",)
    timed = True

    def __init__(self, ctx: FaultContext) -> None:
        super().__init__(ctx)
        self.original: dict[str, Any] | None = None

    def start(self) -> dict[str, Any]:
        iam = self.ctx.gateway.admin_client("iam")
        self.original = parse(iam.get_role(RoleName=self.role_name())["Role"][
            "AssumeRolePolicyDocument"])
        narrowed = {"Version": VERSION, "Statement": [{
            "Effect": "Allow", "Principal": {"AWS": self.params.trusted},
            "Action": "sts:AssumeRole"}]}
        iam.update_assume_role_policy(RoleName=self.role_name(),
                                      PolicyDocument=json.dumps(narrowed))
        self.ctx.gateway.invalidate()
        return {"target": self.ctx.roles[self.ctx.target], "trust_during": narrowed,
                "effect": f"only {self.params.trusted} may assume the role; existing "
                          "sessions keep working",
                "harness_can_assume": self._probe()}

    def heal(self) -> dict[str, Any]:
        if self.original is not None:
            self.ctx.gateway.admin_client("iam").update_assume_role_policy(
                RoleName=self.role_name(), PolicyDocument=json.dumps(self.original))
            self.ctx.gateway.invalidate()
        return {"target": self.ctx.roles[self.ctx.target], "restored": "the trust policy "
                "as it was", "harness_can_assume": self._probe()}

    def _probe(self) -> bool | None:
        """Whether the harness may assume the role now, asked through the gateway (which
        records the decision); None when the run has no harness to ask with."""
        harness = self.ctx.harness
        if harness is None:
            return None
        gateway = self.ctx.gateway
        gateway.register(harness.access_key_id, PROBE_PROCESS,
                         secret_access_key=harness.secret_access_key,
                         principal_arn=aws.HARNESS_ARN)
        try:
            aws.client("sts", gateway.url, harness).assume_role(
                RoleArn=self.ctx.roles[self.ctx.target], RoleSessionName="kit-trust-probe")
        except ClientError as exc:
            if exc.response["Error"]["Code"] != "AccessDenied":
                raise
            return False
        return True
