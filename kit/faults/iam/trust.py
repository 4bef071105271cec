"""trust_narrowed: a role's trust policy is narrowed to one other principal for a window, so
the harness can no longer assume it, and the role's sessions are revoked; then the original
trust policy is put back and the revocation lifted.

A trust policy is evaluated when a role is assumed: sessions that exist would go on until
their credentials expire (IAM User Guide, "Disabling permissions for temporary security
credentials"), which is hours, far past a window of seconds, so a long-lived worker would
never notice the fault. Narrowing a role's trust bites when its sessions must be renewed,
so the fault makes them end within the window, as an operator does with "Revoke active
sessions" (IAM User Guide, "Revoking IAM role temporary security credentials"): an inline
policy `AWSRevokeOlderSessions` denies every action to a session whose aws:TokenIssueTime
is before the revocation time. The time lies past the window's end, so a session issued
during the window (which AWS would have refused to issue under the narrowed trust) is
denied too: every call of the role is AccessDenied until the heal. On AWS the SDK would
then assume the role anew; the kit's workers hold fixed credentials, so the heal deletes
the revocation policy instead, standing in for that renewal.

The fault proves that it holds: as the harness, it asks the gateway to assume the role when
it starts (and is refused) and when it heals (and is allowed), and both decisions are in
the history. A window in which no call of the solution's met the revocation tested
nothing: the fault is then not injected (`workload.fault_injected`); the kit's own probe
does not count.
"""

from __future__ import annotations

import contextlib
import json
import math
import time
from datetime import UTC, datetime
from typing import Any

from botocore.exceptions import ClientError
from pydantic import BaseModel, ConfigDict

from kit import aws
from kit.faults.base import FaultContext, FaultKind, FaultNotInjected
from kit.faults.iam.documents import VERSION, parse

PROBE_PROCESS = "kit"
REVOKE_POLICY = "AWSRevokeOlderSessions"  # the name the IAM console gives it
REVOKE_MARGIN = 60.0  # seconds past the window's end that the revocation time lies


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
        self.started_at = 0  # the recorder's op count when the revocation began

    def start(self) -> dict[str, Any]:
        iam = self.ctx.gateway.admin_client("iam")
        self.original = parse(iam.get_role(RoleName=self.role_name())["Role"][
            "AssumeRolePolicyDocument"])
        narrowed = {"Version": VERSION, "Statement": [{
            "Effect": "Allow", "Principal": {"AWS": self.params.trusted},
            "Action": "sts:AssumeRole"}]}
        iam.update_assume_role_policy(RoleName=self.role_name(),
                                      PolicyDocument=json.dumps(narrowed))
        # Past the window's end, with a margin for a slow start: the heal deletes it anyway.
        revoke = revocation(time.time() + self.ctx.spec.duration_seconds + REVOKE_MARGIN)
        iam.put_role_policy(RoleName=self.role_name(), PolicyName=REVOKE_POLICY,
                            PolicyDocument=json.dumps(revoke))
        self.ctx.gateway.invalidate()
        self.started_at = len(self.ctx.recorder.snapshot())
        return {"target": self.ctx.roles[self.ctx.target], "trust_during": narrowed,
                "revocation": {"policy": REVOKE_POLICY, "document": revoke},
                "effect": f"only {self.params.trusted} may assume the role; its sessions "
                          "are revoked (every call AccessDenied) until the heal",
                "harness_can_assume": self._probe()}

    def window(self) -> None:
        """Hold the window; then a window no call of the solution's met tested nothing."""
        super().window()
        if self.ctx.stopping.is_set():
            return
        if not any(_revoked(op) for op in self.ctx.recorder.snapshot()[self.started_at:]):
            raise FaultNotInjected(
                f"no call of a session of {self.ctx.roles[self.ctx.target]} was made in the "
                f"{self.ctx.spec.duration_seconds:g} s window, so none met the narrowed "
                "trust and the revoked sessions (the kit's own AssumeRole probe does not "
                "count)")

    def heal(self) -> dict[str, Any]:
        iam = self.ctx.gateway.admin_client("iam")
        if self.original is not None:
            iam.update_assume_role_policy(RoleName=self.role_name(),
                                          PolicyDocument=json.dumps(self.original))
            with contextlib.suppress(iam.exceptions.NoSuchEntityException):
                iam.delete_role_policy(RoleName=self.role_name(), PolicyName=REVOKE_POLICY)
            self.ctx.gateway.invalidate()
        return {"target": self.ctx.roles[self.ctx.target], "restored": "the trust policy "
                f"as it was; inline policy {REVOKE_POLICY} deleted (the sessions' renewal)",
                "harness_can_assume": self._probe()}

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


def revocation(until: float) -> dict[str, Any]:
    """AWS's revocation policy (IAM User Guide, "Revoking IAM role temporary security
    credentials"): deny everything to sessions issued before `until` (epoch seconds)."""
    when = datetime.fromtimestamp(math.ceil(until), UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    return {"Version": VERSION, "Statement": [{
        "Effect": "Deny", "Action": ["*"], "Resource": ["*"],
        "Condition": {"DateLessThan": {"aws:TokenIssueTime": when}}}]}


def _revoked(op: Any) -> bool:
    """Whether `op` is a call of a solution's process the revocation denied."""
    return (op.kind == "authz" and op.process != PROBE_PROCESS
            and op.value.decision == "ExplicitDeny"
            and any(f"'inline:{REVOKE_POLICY}'" in ref for ref in op.value.deciding))
