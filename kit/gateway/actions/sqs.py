"""SQS (JSON and query protocols): calls act on the queue their QueueUrl names.

Batch calls are authorized as their single actions, as AWS does: SendMessageBatch needs
sqs:SendMessage, DeleteMessageBatch sqs:DeleteMessage, ChangeMessageVisibilityBatch
sqs:ChangeMessageVisibility.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit

from kit.gateway.actions.base import REGION, Call, Check, Scope, known, unknown
from kit.iam.context import ContextValue

BATCH = {"SendMessageBatch": "SendMessage", "DeleteMessageBatch": "DeleteMessage",
         "ChangeMessageVisibilityBatch": "ChangeMessageVisibility"}
# Calls after which cached queue policies or tags may be stale.
_POLICY_CHANGES = {"CreateQueue", "DeleteQueue", "SetQueueAttributes", "AddPermission",
                   "RemovePermission", "TagQueue", "UntagQueue"}


def queue_arn(queue_url: str, account: str, region: str = REGION) -> str:
    """The queue ARN of a queue URL (`.../<account>/<name>`)."""
    parts = [p for p in urlsplit(queue_url).path.split("/") if p]
    owner, name = (parts[-2], parts[-1]) if len(parts) >= 2 else (account, parts[-1])
    return f"arn:aws:sqs:{region}:{owner}:{name}"


def describe(operation: str, protocol: str, params: Mapping[str, Any], path: str,
             scope: Scope) -> Call:
    """The checks of one SQS call (`path`: query calls may be posted to the queue URL)."""
    found = known("sqs", BATCH.get(operation, operation))
    if found is None:
        return unknown("sqs", operation, protocol, params)
    action, types = found
    resource = "*"
    if types:
        if params.get("QueueUrl"):
            resource = queue_arn(params["QueueUrl"], scope.account, scope.region)
        elif params.get("QueueName"):
            owner = params.get("QueueOwnerAWSAccountId") or scope.account
            resource = f"arn:aws:sqs:{scope.region}:{owner}:{params['QueueName']}"
        elif len([p for p in urlsplit(path).path.split("/") if p]) >= 2:
            resource = queue_arn(path, scope.account, scope.region)
    checks = [Check(action, resource)]
    tags = _request_tags(operation, protocol, params)
    context: dict[str, ContextValue] = {}
    if tags is not None:
        context = {f"aws:RequestTag/{k}": v for k, v in tags.items()}
        context["aws:TagKeys"] = list(tags)
        if operation == "CreateQueue" and tags:
            # AWS: tagging a queue at creation also needs sqs:TagQueue.
            checks.append(Check("sqs:TagQueue", resource))
    return Call("sqs", operation, protocol, tuple(checks), params, context,
                changes_policy=operation in _POLICY_CHANGES)


def _request_tags(operation: str, protocol: str,
                  params: Mapping[str, Any]) -> dict[str, str] | None:
    if operation not in ("CreateQueue", "TagQueue"):
        return None
    if protocol == "json":
        tags = params.get("tags" if operation == "CreateQueue" else "Tags") or {}
        return {str(k): str(v) for k, v in tags.items()}
    keys = {k.split(".")[1]: v for k, v in params.items()
            if k.startswith("Tag.") and k.endswith(".Key")}
    return {key: params.get(f"Tag.{n}.Value", "") for n, key in keys.items()}
