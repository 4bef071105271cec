"""Builders shared by the IAM evaluator tests: accounts, principals and policy documents."""

from __future__ import annotations

from typing import Any

ACCOUNT = "111122223333"
OTHER_ACCOUNT = "444455556666"
ROLE_ARN = f"arn:aws:iam::{ACCOUNT}:role/app/worker"
SESSION_ARN = f"arn:aws:sts::{ACCOUNT}:assumed-role/worker/session-1"
USER_ARN = f"arn:aws:iam::{ACCOUNT}:user/carlossalazar"
QUEUE_ARN = f"arn:aws:sqs:us-east-1:{ACCOUNT}:orders"


def policy(*statements: dict[str, Any], version: str | None = "2012-10-17") -> dict[str, Any]:
    """Build a policy document from statements."""
    document: dict[str, Any] = {"Statement": list(statements)}
    if version:
        document["Version"] = version
    return document


def allow(action: Any, resource: Any = "*", **extra: Any) -> dict[str, Any]:
    """Build an Allow statement."""
    return {"Effect": "Allow", "Action": action, "Resource": resource, **extra}


def deny(action: Any, resource: Any = "*", **extra: Any) -> dict[str, Any]:
    """Build a Deny statement."""
    return {"Effect": "Deny", "Action": action, "Resource": resource, **extra}
