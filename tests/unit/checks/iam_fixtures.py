"""IAM states with resource policies, boundaries and KMS keys, for the IAM checker tests.

Built on builder.healthy_iam (a worker that consumes the orders queue, a producer that sends
to it). The KMS pairs follow the SQS developer guide, "Amazon SQS Key management"
(https://docs.aws.amazon.com/AWSSimpleQueueService/latest/SQSDeveloperGuide/sqs-key-management.html):
a producer to a queue encrypted with a customer managed key needs kms:GenerateDataKey and
kms:Decrypt on it, a consumer kms:Decrypt.
"""

from __future__ import annotations

import copy
from typing import Any

from kit.checks import CheckResult, run_checks

from .builder import ACCOUNT, IAM_PARAMS, healthy_iam, healthy_run, resolved

WORKER_ROLE = f"arn:aws:iam::{ACCOUNT}:role/worker"
PRODUCER_ROLE = f"arn:aws:iam::{ACCOUNT}:role/producer"
ROOT = f"arn:aws:iam::{ACCOUNT}:root"
KEY = f"arn:aws:kms:us-east-1:{ACCOUNT}:key/0a1b2c3d-1111-4222-8333-444455556666"
DECOY_KEY = f"arn:aws:kms:us-east-1:{ACCOUNT}:key/00000000-0000-4000-8000-00000000dec0"

CONSUMER_KEY_USE = ["kms:Decrypt"]
PRODUCER_KEY_USE = ["kms:GenerateDataKey", "kms:Decrypt"]


def statement(effect: str, principal: Any, actions: list[str] | str, resource: str = "*",
              **extra: Any) -> dict[str, Any]:
    """A resource-policy statement."""
    return {"Effect": effect, "Principal": principal, "Action": actions, "Resource": resource,
            **extra}


def document(*statements: dict[str, Any]) -> dict[str, Any]:
    """A policy document."""
    return {"Version": "2012-10-17", "Statement": list(statements)}


# AWS KMS, "Default key policy": the account may use IAM policies for every KMS operation.
DEFAULT_KEY_POLICY = document(statement("Allow", {"AWS": ROOT}, "kms:*", Sid="EnableIAM"))


def iam_state(*, decoy_key: bool = True) -> dict[str, Any]:
    """builder.healthy_iam, copied, with a decoy KMS key under the default key policy."""
    iam = healthy_iam()
    iam["resource_policies"] = {}
    if decoy_key:
        iam["resources"]["decoy_key"] = DECOY_KEY
        iam["resource_policies"]["decoy_key"] = DEFAULT_KEY_POLICY
    return iam


def with_customer_key(iam: dict[str, Any], key_policy: dict[str, Any] = DEFAULT_KEY_POLICY
                      ) -> dict[str, Any]:
    """The orders queue encrypted with a customer managed key, as the reader records it."""
    iam["resources"]["queue.kms_key"] = KEY
    iam["resource_policies"]["queue.kms_key"] = key_policy
    return iam


def grant(iam: dict[str, Any], role: str, name: str, actions: list[str] | str,
          resource: str) -> dict[str, Any]:
    """Add an inline identity policy to a role."""
    iam["roles"][role]["policies"][name] = document(
        {"Effect": "Allow", "Action": actions, "Resource": resource})
    return iam


def _with_pairs(params: dict[str, Any], extra: dict[str, list[list[str]]]) -> dict[str, Any]:
    out = copy.deepcopy(params)
    for role, pairs in extra.items():
        out["roles"][role] = out["roles"][role] + pairs
    return out


KEY_PAIRS = {"worker": [[a, "queue.kms_key"] for a in CONSUMER_KEY_USE],
             "producer": [[a, "queue.kms_key"] for a in PRODUCER_KEY_USE]}
# IAM_PARAMS plus the key use SQS needs when the queue has a customer managed key.
KMS_PARAMS = {check: _with_pairs(params, KEY_PAIRS) for check, params in IAM_PARAMS.items()}


def verdicts(iam: dict[str, Any], params: dict[str, Any] | None = None
             ) -> dict[str, CheckResult]:
    """Both IAM checkers on a healthy run whose final IAM state is `iam`."""
    run = healthy_run(seed=3)
    run.final["iam"] = iam
    return run_checks(run.build(), resolved(params or IAM_PARAMS))


def members(result: CheckResult, key: str) -> list[dict[str, Any]]:
    """The evidence members of one anomaly."""
    return result.evidence[key]["members"]
