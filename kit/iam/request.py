"""A request to authorize: principal, action, resource and the request context.

The global keys that AWS always sets for a principal (aws:PrincipalArn, aws:PrincipalAccount,
aws:PrincipalType, aws:username for IAM users) are derived here when the caller does not
give them, so that conditions and policy variables see what AWS would see.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from kit.iam.context import Context, ContextValue
from kit.iam.errors import RequestError
from kit.iam.principals import Caller, parse_caller


@dataclass(frozen=True, slots=True)
class Request:
    """One API call: who (principal ARN), what (service:Action), on what, with which context.

    `principal` is the caller's ARN: for a role this is the session ARN
    `arn:aws:sts::ACCT:assumed-role/ROLE/SESSION`; `role_arn` is the role behind it (with its
    path). `resource_account` defaults to the account in the resource ARN, or to the
    principal's account when the ARN has none (S3).
    Context keys absent from `context` are derived from the principal: aws:PrincipalArn,
    aws:PrincipalAccount, aws:PrincipalType and (for IAM users) aws:username.
    `normalized_action` (lower-cased) and `normalized_context` are computed once, here.
    """

    principal: str
    action: str
    resource: str = "*"
    context: Mapping[str, ContextValue] = field(default_factory=dict)
    role_arn: str | None = None
    resource_account: str | None = None
    normalized_context: Context = field(init=False, repr=False, compare=False)
    normalized_action: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.action != "*" and ":" not in self.action:
            raise RequestError(
                f"action {self.action!r} has no service prefix; write it as 'service:Action', "
                "e.g. 'sqs:SendMessage'"
            )
        caller = parse_caller(self.principal, self.role_arn)
        object.__setattr__(self, "normalized_action", self.action.lower())
        object.__setattr__(
            self, "normalized_context", Context(self.context).with_defaults(_derived_keys(caller))
        )


def _derived_keys(caller: Caller) -> dict[str, str]:
    """Global condition keys that AWS always puts in the context for this principal."""
    keys: dict[str, str] = {}
    if caller.account:
        keys["aws:PrincipalAccount"] = caller.account
    if caller.kind == "role_session":
        keys["aws:PrincipalArn"] = caller.role_arn or caller.arn
        keys["aws:PrincipalType"] = "AssumedRole"
    elif caller.kind == "user":
        keys["aws:PrincipalArn"] = caller.arn
        keys["aws:PrincipalType"] = "User"
        keys["aws:username"] = caller.arn.rsplit("/", 1)[-1]
    elif caller.kind == "federated_user":
        keys["aws:PrincipalArn"] = caller.arn
        keys["aws:PrincipalType"] = "FederatedUser"
    elif caller.kind == "root":
        keys["aws:PrincipalArn"] = caller.arn
        keys["aws:PrincipalType"] = "Account"
    elif caller.kind == "role":
        keys["aws:PrincipalArn"] = caller.arn
    return keys
