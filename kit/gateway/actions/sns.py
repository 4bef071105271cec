"""SNS (query protocol: botocore's and the provider's SDK both speak awsQuery, version
2010-03-31): calls act on the topic they name.

The resource of a call is its topic's ARN (`TopicArn`, `TargetArn` for Publish, the topic
part of a `SubscriptionArn`, or the topic a CreateTopic names); tag calls name it as
`ResourceArn`. An action without a resource type in the catalogue (ListTopics, ...) is
checked on "*". Publish and PublishBatch are authorized, then answered by the kit's own
fan-out (kit/gateway/sns.py), never forwarded to the emulator.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kit.gateway.actions.base import Call, Check, Scope, known, unknown

# PublishBatch needs sns:Publish (SNS API reference, PublishBatch: "the same permission as
# Publish"); the catalogue lists no sns:PublishBatch.
BATCH = {"PublishBatch": "Publish"}
# Calls after which a cached topic policy, tags or subscription may be stale.
_POLICY_CHANGES = {"CreateTopic", "DeleteTopic", "SetTopicAttributes", "AddPermission",
                   "RemovePermission", "TagResource", "UntagResource", "Subscribe",
                   "Unsubscribe", "SetSubscriptionAttributes", "PutDataProtectionPolicy"}
PUBLISH = ("Publish", "PublishBatch")


def topic_of(params: Mapping[str, Any], scope: Scope) -> str | None:
    """The topic ARN a call names, or None when it names none."""
    for name in ("TopicArn", "TargetArn", "ResourceArn"):
        value = params.get(name)
        if isinstance(value, str) and value.startswith("arn:"):
            return value
    subscription = params.get("SubscriptionArn")
    if isinstance(subscription, str) and subscription.count(":") >= 6:
        return subscription.rsplit(":", 1)[0]
    if isinstance(params.get("Name"), str) and params["Name"]:
        return f"arn:aws:sns:{scope.region}:{scope.account}:{params['Name']}"
    return None


def describe(operation: str, params: Mapping[str, Any], scope: Scope) -> Call:
    """The checks of one SNS call."""
    found = known("sns", BATCH.get(operation, operation))
    if found is None:
        return unknown("sns", operation, "query", params)
    action, types = found
    resource = "*"
    if types:
        topic = topic_of(params, scope)
        if topic is None and operation == "Publish" and params.get("PhoneNumber"):
            return Call("sns", operation, "query", params=params,
                        problem="Publish to a phone number: the kit delivers to topics only")
        if topic is None:
            return Call("sns", operation, "query", params=params,
                        problem=f"sns:{operation} names no topic (TopicArn)")
        resource = topic
    return Call("sns", operation, "query", (Check(action, resource),), params,
                changes_policy=operation in _POLICY_CHANGES)
