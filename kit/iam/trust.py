"""sts:AssumeRole against a role trust policy.

A role trust policy is a resource-based policy with one exception to the same-account rule:
it must explicitly allow the principal (AWS: policy evaluation logic, resource-based
policies); an identity policy that allows sts:AssumeRole is not enough on its own.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from kit.iam.context import ContextValue
from kit.iam.evaluate import (
    Decision,
    Policies,
    ScpLevel,
    decide,
    label_policies,
    label_policy,
    label_scp_levels,
    matching_statements,
)
from kit.iam.policy import PolicyLike
from kit.iam.principals import parse_caller
from kit.iam.request import Request


def can_assume(
    trust_policy: PolicyLike,
    principal_arn: str,
    *,
    role_arn: str | None = None,
    target_role_arn: str = "*",
    context: Mapping[str, ContextValue] | None = None,
    identity_policies: Policies | None = None,
    boundary: PolicyLike | None = None,
    scps: Sequence[ScpLevel] = (),
    action: str = "sts:AssumeRole",
) -> Decision:
    """Decide whether principal_arn may call sts:AssumeRole on a role with this trust policy.

    A trust policy must name the caller: an identity policy alone never suffices. With
    `identity_policies=None` only the trust policy is judged, and a trust that names the
    caller's account counts as admitting it (the account's IAM policies decide the rest);
    pass the caller's identity policies to judge that part too. Pass `target_role_arn`
    so that a cross-account assumption is recognized as one.
    """
    request = Request(principal_arn, action, target_role_arn, context or {}, role_arn)
    trust = label_policy(trust_policy, "trust")
    if identity_policies is None:
        caller = parse_caller(request.principal, request.role_arn)
        allows, denies = matching_statements(
            trust, "resource", request, caller, boundary is not None
        )
        if denies:
            return Decision("ExplicitDeny", tuple(denies), f"denied by {denies[0]}")
        if allows:
            return Decision("Allow", tuple(allows), f"trusted by {allows[0]}")
        return Decision("ImplicitDeny", (), "the trust policy does not name this principal")
    return decide(
        request,
        label_policies(identity_policies, "identity"),
        boundary=label_policy(boundary, "boundary") if boundary is not None else None,
        sessions=[],
        resource=trust,
        scp_levels=label_scp_levels(scps),
        principal_account=None,
        trust=True,
    )
