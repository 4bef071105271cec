"""STS (query protocol): AssumeRole acts on the target role; the rest on "*"."""

from __future__ import annotations

from collections.abc import Mapping

from kit.gateway.actions.base import Call, Check, Scope, known, unknown
from kit.iam.context import ContextValue


def describe(operation: str, params: Mapping[str, str], scope: Scope) -> Call:
    """The checks of one STS call."""
    found = known("sts", operation)
    if found is None:
        return unknown("sts", operation, "query", params)
    action, _ = found
    if operation == "AssumeRole":
        role = params.get("RoleArn", "*")
        checks = [Check(action, role)]
        if any(k.startswith("Tags.member.") for k in params):
            checks.append(Check("sts:TagSession", role))  # AWS: session tags need it
        if params.get("SourceIdentity"):
            checks.append(Check("sts:SetSourceIdentity", role))
        context: dict[str, ContextValue] = {}
        if params.get("RoleSessionName"):
            context["sts:RoleSessionName"] = params["RoleSessionName"]
        if params.get("ExternalId"):
            context["sts:ExternalId"] = params["ExternalId"]
        return Call("sts", operation, "query", tuple(checks), params, context)
    if operation == "GetFederationToken" and params.get("Name"):
        resource = f"arn:aws:sts::{scope.account}:federated-user/{params['Name']}"
        return Call("sts", operation, "query", (Check(action, resource),), params)
    return Call("sts", operation, "query", (Check(action, "*"),), params)
