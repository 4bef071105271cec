"""IAM faults: the workers' permissions are revoked for a window, then restored."""

from __future__ import annotations

import contextlib
import json
from typing import Any

from kit.faults.base import FaultContext, FaultNotInjected, Timed

REVOKE_POLICY = "kit-revoke"
_DENY_SQS = {"Version": "2012-10-17",
             "Statement": [{"Sid": "KitRevoke", "Effect": "Deny", "Action": "sqs:*",
                            "Resource": "*"}]}


def _role_name(ctx: FaultContext) -> str:
    if not ctx.worker_role_arn:
        raise FaultNotInjected(
            f"{ctx.spec.kind}: FaultContext.worker_role_arn is not set, so there is no role to "
            "revoke; pass worker_role_arn=outputs['worker_role_arn'] when building it")
    return ctx.worker_role_arn.rsplit("/", 1)[-1]


class IamRevoke(Timed):
    """An explicit deny of sqs:* on the worker role: every SQS call of the workers fails."""

    def start(self, ctx: FaultContext) -> dict[str, Any]:
        role = _role_name(ctx)
        ctx.gateway.admin_client("iam").put_role_policy(
            RoleName=role, PolicyName=REVOKE_POLICY, PolicyDocument=json.dumps(_DENY_SQS))
        ctx.gateway.invalidate()  # the gateway caches policies: the deny applies from now
        return {"target": ctx.worker_role_arn, "policy": REVOKE_POLICY,
                "effect": "explicit deny of sqs:* on *"}

    def heal(self, ctx: FaultContext) -> None:
        iam = ctx.gateway.admin_client("iam")
        # Already gone (someone healed it by hand) is healed.
        with contextlib.suppress(iam.exceptions.NoSuchEntityException):
            iam.delete_role_policy(RoleName=_role_name(ctx), PolicyName=REVOKE_POLICY)
        ctx.gateway.invalidate()
