"""Secrets Manager (JSON protocol): calls act on the secret their SecretId names.

A secret's ARN ends in a random 6-character suffix that a name does not carry. A name is
resolved to the real ARN through the emulator (`Names.secret_arn`); a secret the emulator
does not have gets the suffix wildcard `-??????`, which matches what AWS would have made.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kit.gateway.actions.base import REGION, Call, Check, Scope, known, unknown
from kit.iam.context import ContextValue

_POLICY_CHANGES = {"CreateSecret", "DeleteSecret", "RestoreSecret", "PutResourcePolicy",
                   "DeleteResourcePolicy", "TagResource", "UntagResource"}


def secret_pattern(account: str, name: str, region: str = REGION) -> str:
    """The ARN of secret `name` with its unknown 6-character suffix as `??????`."""
    return f"arn:aws:secretsmanager:{region}:{account}:secret:{name}-??????"


def describe(operation: str, params: Mapping[str, Any], scope: Scope) -> Call:
    """The checks of one Secrets Manager call."""
    found = known("secretsmanager", operation)
    if found is None:
        return unknown("secretsmanager", operation, "json", params)
    action, types = found
    resource = "*"
    secret = params.get("SecretId") or (params.get("Name") if operation == "CreateSecret"
                                        else None)
    if types and isinstance(secret, str) and secret:
        if secret.startswith("arn:"):
            resource = secret
        else:
            resolved = scope.names.secret_arn(secret, scope.region) \
                if scope.names is not None else None
            resource = resolved or secret_pattern(scope.account, secret, scope.region)
    context: dict[str, ContextValue] = {}
    if isinstance(secret, str) and secret:
        context["secretsmanager:SecretId"] = resource if resource != "*" else secret
    return Call("secretsmanager", operation, "json", (Check(action, resource),), params,
                context, changes_policy=operation in _POLICY_CHANGES)
