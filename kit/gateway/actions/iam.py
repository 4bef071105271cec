"""IAM (query protocol): calls act on the entity their parameters name, by the catalogue.

The catalogue says which resource type an action is authorized on (AttachRolePolicy: the
role, with the policy as the iam:PolicyARN condition key); the parameter naming that type
gives the ARN. Role and user ARNs carry their path, which only the emulator knows.
"""

from __future__ import annotations

from collections.abc import Mapping

from kit.gateway.actions.base import Call, Scope, checks, known, unknown
from kit.iam.context import ContextValue

# Resource type (as the catalogue names it) -> the parameter that names it.
_PARAMS = {"role": "RoleName", "user": "UserName", "group": "GroupName",
           "instance-profile": "InstanceProfileName", "policy": "PolicyArn",
           "oidc-provider": "OpenIDConnectProviderArn", "saml-provider": "SAMLProviderArn",
           "server-certificate": "ServerCertificateName"}
_CREATES = {"CreateRole": "role", "CreateUser": "user", "CreateGroup": "group",
            "CreateInstanceProfile": "instance-profile", "CreatePolicy": "policy"}
_READS = ("Get", "List", "Generate", "Simulate")


def iam_arn(account: str, kind: str, name: str, path: str = "/") -> str:
    """The ARN of an IAM entity of `kind` (role, user, group, policy, instance-profile)."""
    path = path if path.endswith("/") else path + "/"
    path = path if path.startswith("/") else "/" + path
    return f"arn:aws:iam::{account}:{kind}{path}{name}"


def describe(operation: str, params: Mapping[str, str], scope: Scope) -> Call:
    """The checks of one IAM call; every write may change policies."""
    found = known("iam", operation)
    if found is None:
        return unknown("iam", operation, "query", params)
    action, types = found
    resources = [r for r in (_resource(operation, t, params, scope) for t in types) if r]
    context: dict[str, ContextValue] = {}
    if params.get("PolicyArn"):
        context["iam:PolicyARN"] = params["PolicyArn"]
    if params.get("PermissionsBoundary"):
        context["iam:PermissionsBoundary"] = params["PermissionsBoundary"]
    return Call("iam", operation, "query", checks(action, resources), params, context,
                changes_policy=not operation.startswith(_READS))


def _resource(operation: str, kind: str, params: Mapping[str, str], scope: Scope) -> str:
    if _CREATES.get(operation) == kind:  # the entity does not exist yet: its path is given
        name = params.get("PolicyName" if kind == "policy" else _PARAMS[kind], "")
        return iam_arn(scope.account, kind, name, params.get("Path", "/")) if name else ""
    value = params.get(_PARAMS.get(kind, ""), "")
    if not value or value.startswith("arn:"):
        return value
    found = scope.names.iam_arn(kind, value) if scope.names is not None else None
    return found or iam_arn(scope.account, kind, value)
