"""Read the roles a solution created, and the policies of the scenario's resources, as the
emulator holds them, for the IAM checkers (final.iam, layout in kit/checks/least_privilege.py)."""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable
from typing import Any
from urllib.parse import unquote

from kit.aws import ACCOUNT_ID, HARNESS_ARN, REGION
from kit.workload import resource_policies

# Resources the solution never mentions: any permission on them is an over-grant.
DECOYS = {
    "decoy_queue": f"arn:aws:sqs:{REGION}:{ACCOUNT_ID}:kit-decoy-queue",
    "decoy_secret": f"arn:aws:secretsmanager:{REGION}:{ACCOUNT_ID}:secret:kit-decoy-AbCdEf",
    "decoy_role": f"arn:aws:iam::{ACCOUNT_ID}:role/kit-decoy-role",
    "decoy_db": f"arn:aws:rds:{REGION}:{ACCOUNT_ID}:db:kit-decoy-db",
    "decoy_key": f"arn:aws:kms:{REGION}:{ACCOUNT_ID}:key/00000000-0000-4000-8000-00000000dec0",
    "decoy_bucket": "arn:aws:s3:::kit-decoy-bucket",
    # A grant on every topic or table of the account reaches these (kit mutate found
    # sns:Publish on Resource "*" passing where no other topic was there to reach).
    "decoy_topic": f"arn:aws:sns:{REGION}:{ACCOUNT_ID}:kit-decoy-topic",
    "decoy_table": f"arn:aws:dynamodb:{REGION}:{ACCOUNT_ID}:table/kit-decoy-table",
    "decoy_function": f"arn:aws:lambda:{REGION}:{ACCOUNT_ID}:function:kit-decoy-function",
}
# Every KMS key has a key policy; the decoy key has the one AWS KMS gives a key created
# without one ("Default key policy"), so identity policies on it count as they would.
DECOY_POLICIES = {"decoy_key": {"Version": "2012-10-17", "Statement": [{
    "Sid": "Enable IAM User Permissions", "Effect": "Allow",
    "Principal": {"AWS": f"arn:aws:iam::{ACCOUNT_ID}:root"}, "Action": "kms:*",
    "Resource": "*"}]}}


def _tags(iam: Any, role: str) -> dict[str, str]:
    """A role's tags (its sessions' aws:PrincipalTag/* keys)."""
    pages = iam.get_paginator("list_role_tags").paginate(RoleName=role)
    return {tag["Key"]: tag["Value"] for page in pages for tag in page.get("Tags", [])}


def _doc(value: Any) -> Any:
    # boto3 decodes policy documents to dicts; some paths hand back URL-encoded JSON text.
    return json.loads(unquote(value)) if isinstance(value, str) else value


def read(iam: Any, role_arns: dict[str, str], resources: dict[str, str],
         clients: Callable[[str], Any] | None = None, since: float | None = None
         ) -> dict[str, Any]:
    """The final.iam snapshot: each named role's trust, policies and boundary, and (given
    `clients`, a boto3 admin client per service name) the resources' own policies."""
    details = iam.get_account_authorization_details(Filter=["Role", "LocalManagedPolicy"])
    managed = {
        p["Arn"]: _doc(next(v["Document"] for v in p["PolicyVersionList"]
                            if v["IsDefaultVersion"]))
        for p in details.get("Policies", [])}
    by_arn = {r["Arn"]: r for r in details.get("RoleDetailList", [])}
    roles: dict[str, Any] = {}
    for name, arn in role_arns.items():
        role = by_arn.get(arn)
        if role is None:
            continue
        policies = {f"inline:{p['PolicyName']}": _doc(p["PolicyDocument"])
                    for p in role.get("RolePolicyList", [])}
        for attached in role.get("AttachedManagedPolicies", []):
            if attached["PolicyArn"] in managed:
                policies[f"managed:{attached['PolicyName']}"] = managed[attached["PolicyArn"]]
        boundary = role.get("PermissionsBoundary", {}).get("PermissionsBoundaryArn")
        roles[name] = {"arn": arn, "trust": _doc(role["AssumeRolePolicyDocument"]),
                       "policies": policies, "boundary": managed.get(boundary),
                       "boundary_arn": boundary, "tags": _tags(iam, role["RoleName"]),
                       "id": role.get("RoleId")}
    # The roles themselves are resources too (under their own names): a role that may edit
    # its own policies can grant itself anything later.
    own = dict(role_arns)
    policies, keys = resource_policies.read(clients, resources) if clients else ({}, {})
    # Every request of the run was made between `since` and now: time conditions are judged
    # over that window.
    now = time.time()
    return {"account": ACCOUNT_ID, "harness": HARNESS_ARN,
            "since": math.floor(since if since is not None else now), "until": math.ceil(now),
            "resources": {**resources, **keys, **own, **DECOYS},
            "resource_policies": {**policies, **DECOY_POLICIES}, "roles": roles}
