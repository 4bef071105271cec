"""A service principal's sts:AssumeRole: whether a role's trust policy admits the compute
service a team's workers run as (ecs-tasks.amazonaws.com, lambda.amazonaws.com, ...).

AWS: a service assumes a role on a customer's behalf only where the role's trust policy
names that service principal in `Principal.Service` (IAM User Guide, "AWS service
principals" and "Creating a role to delegate permissions to an AWS service"). The service
signs the request itself: there is no caller IP of the customer's, and it sends
aws:SourceAccount (the account whose resource it acts for) and aws:PrincipalServiceName,
aws:PrincipalIsAWSService true (IAM User Guide, "The confused deputy problem" and "AWS
global condition context keys"). aws:SourceArn names the task or function the service acts
for: the kit's workers are neither, so it is sent only when the caller knows one; a trust
policy that conditions on it then does not admit the kit's workers (said in the evidence).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kit.iam.context import ContextValue
from kit.iam.effective import runtime_keys
from kit.iam.evaluate import Decision
from kit.iam.trust import can_assume

LAMBDA = "lambda.amazonaws.com"  # who assumes a function's execution role


def service_keys(service: str, account: str, window: tuple[float, float],
                 source_arn: str | None = None) -> dict[str, ContextValue]:
    """The request context of `service`'s sts:AssumeRole for `account`, at any time of
    `window` (no aws:SourceIp: the service calls from its own network)."""
    keys: dict[str, ContextValue] = {
        key: value for key, value in runtime_keys(window).items() if key != "aws:SourceIp"}
    keys |= {"aws:SecureTransport": True, "aws:SourceAccount": account,
             "aws:PrincipalServiceName": service, "aws:PrincipalIsAWSService": True}
    if source_arn is not None:
        keys["aws:SourceArn"] = source_arn
    return keys


def service_admits(trust: Any, service: str, role_arn: str, account: str,
                   window: tuple[float, float]) -> Decision:
    """AWS's decision on `service` assuming the role with this trust policy."""
    return can_assume(trust, service, target_role_arn=role_arn,
                      context=service_keys(service, account, window))


def refusal(role: str, role_arn: str, trust: Any, service: str, decision: Decision
            ) -> Mapping[str, Any]:
    """The evidence of a refused assumption: the role, the service, why, the trust policy."""
    return {"role": role, "role_arn": role_arn, "principal": service,
            "reason": decision.reason or decision.effect, "trust": trust}
