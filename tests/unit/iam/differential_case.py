"""The differential test's case: one request with its policies, for kit.iam and iam-simulate."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from kit.iam import Request, evaluate

A = "111122223333"  # the resources' account
B = "444455556666"  # a foreign account
SESSION = f"arn:aws:sts::{A}:assumed-role/worker/s1"
ROLE = f"arn:aws:iam::{A}:role/worker"
USER = f"arn:aws:iam::{A}:user/alice"
FOREIGN_SESSION = f"arn:aws:sts::{B}:assumed-role/auditor/a1"
FOREIGN_ROLE = f"arn:aws:iam::{B}:role/auditor"
FOREIGN_USER = f"arn:aws:iam::{B}:user/bob"


@dataclass
class Case:
    """One generated request with its policies, in both the kit's and the oracle's form."""

    index: int
    principal: str
    role_arn: str | None
    action: str
    resource: str
    context: dict[str, Any]
    identity: dict[str, dict] = field(default_factory=dict)
    boundary: dict | None = None
    session: dict | None = None
    resource_policy: dict | None = None
    scps: list[list[dict]] = field(default_factory=list)

    def kit_effect(self) -> str:
        """Evaluate with kit.iam and return the oracle's name for the effect."""
        request = Request(self.principal, self.action, self.resource, self.context, self.role_arn,
                          self.resource_account)
        decision = evaluate(
            request,
            self.identity,
            boundary=self.boundary,
            session_policies=[self.session] if self.session else [],
            resource_policy=self.resource_policy,
            scps=self.scps,
        )
        return {
            "Allow": "Allowed",
            "ExplicitDeny": "ExplicitlyDenied",
            "ImplicitDeny": "ImplicitlyDenied",
        }[decision.effect]

    @property
    def resource_account(self) -> str:
        """The account that owns the resource: the one in its ARN, else the resources' (S3)."""
        return self.resource.split(":")[4] or A

    def simulation(self) -> dict[str, Any]:
        """Return the iam-simulate Simulation object for this case."""
        simulation: dict[str, Any] = {
            "request": {
                "principal": self.principal,
                "action": self.action,
                "resource": {"resource": self.resource, "accountId": self.resource_account},
                "contextVariables": self.context,
            },
            "identityPolicies": [
                {"name": name, "policy": doc} for name, doc in self.identity.items()
            ],
            "serviceControlPolicies": [
                {
                    "orgIdentifier": f"ou-{level}",
                    "policies": [
                        {"name": f"scp{level}-{i}", "policy": p} for i, p in enumerate(policies)
                    ],
                }
                for level, policies in enumerate(self.scps)
            ],
            "resourceControlPolicies": [],
        }
        if self.resource_policy:
            simulation["resourcePolicy"] = self.resource_policy
        if self.boundary:
            simulation["permissionBoundaryPolicies"] = [
                {"name": "boundary", "policy": self.boundary}
            ]
        if self.session:
            simulation["sessionPolicy"] = self.session
        return simulation


def derived_context(principal: str, role_arn: str | None) -> dict[str, str]:
    """The global keys AWS always sets for the principal; both evaluators get them."""
    account = principal.split(":")[4]
    if ":assumed-role/" in principal:
        return {
            "aws:PrincipalArn": role_arn or "",
            "aws:PrincipalAccount": account,
            "aws:PrincipalType": "AssumedRole",
        }
    name = principal.rsplit("/", 1)[-1]
    return {
        "aws:PrincipalArn": principal,
        "aws:PrincipalAccount": account,
        "aws:PrincipalType": "User",
        "aws:username": name,
    }


def policy(statements: list[dict[str, Any]]) -> dict[str, Any]:
    return {"Version": "2012-10-17", "Statement": statements}
