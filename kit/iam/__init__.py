"""AWS IAM policy evaluation and the action catalogue (pure logic, no services)."""

from kit.iam.catalogue import (
    ActionInfo,
    ResourceType,
    action_info,
    condition_keys,
    expand_action,
    is_known_action,
    resource_types,
    service_actions,
    unknown_actions,
)
from kit.iam.errors import CatalogueError, IamError, PolicyError, RequestError
from kit.iam.evaluate import Decision, StatementRef, evaluate
from kit.iam.policy import Policy, Statement, parse_policy
from kit.iam.request import Request
from kit.iam.trust import can_assume

__all__ = [
    "ActionInfo",
    "CatalogueError",
    "Decision",
    "IamError",
    "Policy",
    "PolicyError",
    "RequestError",
    "Request",
    "ResourceType",
    "Statement",
    "StatementRef",
    "action_info",
    "can_assume",
    "condition_keys",
    "evaluate",
    "expand_action",
    "is_known_action",
    "parse_policy",
    "resource_types",
    "service_actions",
    "unknown_actions",
]
