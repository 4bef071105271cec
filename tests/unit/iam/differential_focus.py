"""Focused differential cases: the policy types that cap or grant beyond identity policies.

Four themes, in turn (KMS twice: its rule is the newest), so each gets a fifth or more:
- boundary: identity policies under a permissions boundary, with or without a resource policy
  naming the session, the role, the account or someone else;
- resource: resource-based policies alone or with identity policies, every Principal form
  (session, role, user, account ARN, bare account id, "*", {"AWS": "*"}, a service, another
  account) and NotPrincipal, same-account and cross-account in both directions;
- kms: KMS key policies, where identity policies count only when the key policy allows the
  account (AWS KMS: "Default key policy"), including keys of another account;
- session: session policies with identity and resource policies.
"""

from __future__ import annotations

import random
from typing import Any

from .differential_case import (
    FOREIGN_ROLE,
    FOREIGN_SESSION,
    FOREIGN_USER,
    ROLE,
    SESSION,
    USER,
    A,
    B,
    Case,
    derived_context,
    policy,
)

THEMES = ("boundary", "resource", "kms", "session", "kms")
ROOT_A, ROOT_B = f"arn:aws:iam::{A}:root", f"arn:aws:iam::{B}:root"
OTHER_ROLE = f"arn:aws:iam::{A}:role/admin"

# service -> (resources in A, resources in B, actions)
SERVICES: dict[str, tuple[list[str], list[str], list[str]]] = {
    "sqs": ([f"arn:aws:sqs:us-east-1:{A}:orders"], [f"arn:aws:sqs:us-east-1:{B}:shared"],
            ["SendMessage", "ReceiveMessage", "PurgeQueue", "DeleteMessage"]),
    "sns": ([f"arn:aws:sns:us-east-1:{A}:events"], [f"arn:aws:sns:us-east-1:{B}:alerts"],
            ["Publish", "Subscribe", "SetTopicAttributes"]),
    "secretsmanager": ([f"arn:aws:secretsmanager:us-east-1:{A}:secret:db-AbCdEf"],
                       [f"arn:aws:secretsmanager:us-east-1:{B}:secret:api-GhIjKl"],
                       ["GetSecretValue", "PutSecretValue", "DeleteSecret"]),
    # S3 ARNs name no account: the bucket is in A, so only a caller of B is cross-account.
    "s3": (["arn:aws:s3:::orders-bucket/k"], ["arn:aws:s3:::orders-bucket/k"],
           ["GetObject", "PutObject", "DeleteObject"]),
}
KEYS = ([f"arn:aws:kms:us-east-1:{A}:key/1111aaaa-11aa-11aa-11aa-111111aaaaaa"],
        [f"arn:aws:kms:us-east-1:{B}:key/2222bbbb-22bb-22bb-22bb-222222bbbbbb"])
KMS_ACTIONS = ["Decrypt", "Encrypt", "GenerateDataKey", "DescribeKey", "ScheduleKeyDeletion",
               "PutKeyPolicy"]

# Principal elements a resource-based policy can hold; which ones name the caller depends
# on the case's principal.
PRINCIPAL_FORMS: list[Any] = [
    {"AWS": SESSION}, {"AWS": ROLE}, {"AWS": USER}, {"AWS": ROOT_A}, {"AWS": A}, "*",
    {"AWS": "*"}, {"AWS": OTHER_ROLE}, {"AWS": FOREIGN_ROLE}, {"AWS": FOREIGN_SESSION},
    {"AWS": FOREIGN_USER}, {"AWS": ROOT_B}, {"AWS": B}, {"AWS": [ROLE, ROOT_B]},
    {"AWS": [USER, FOREIGN_ROLE]}, {"Service": "sqs.amazonaws.com"},
]
NOT_PRINCIPAL_FORMS: list[list[str]] = [
    [SESSION, ROLE, ROOT_A], [ROLE, ROOT_A], [SESSION, ROLE], [USER, ROOT_A], [USER],
    [OTHER_ROLE], [FOREIGN_ROLE, ROOT_B], [FOREIGN_SESSION, FOREIGN_ROLE, ROOT_B], [ROOT_A],
]
# (principal, role ARN behind it): mostly the account's role session, some users and
# principals of the other account.
CALLERS = [(SESSION, ROLE)] * 5 + [(USER, None)] * 2 + [(FOREIGN_SESSION, FOREIGN_ROLE),
                                                        (FOREIGN_USER, None)]


def _pick(rng: random.Random, values: list[Any]) -> Any:
    return values[rng.randrange(len(values))]


def _actions(rng: random.Random, service: str, action: str, names: list[str]) -> Any:
    """An Action element that covers the target action, a sibling, or the whole service."""
    choices = [f"{service}:{action}", f"{service}:*", f"{service}:{_pick(rng, names)}", "*",
               [f"{service}:{action}", f"{service}:{_pick(rng, names)}"]]
    return _pick(rng, choices)


def _statement(rng: random.Random, service: str, action: str, names: list[str],
               resource: str, deny_rate: float) -> dict[str, Any]:
    return {"Effect": "Deny" if rng.random() < deny_rate else "Allow",
            "Action": _actions(rng, service, action, names),
            "Resource": _pick(rng, ["*", resource, resource, f"arn:aws:{service}:*:*:other*"])}


def _identity(rng: random.Random, service: str, action: str, names: list[str],
              resource: str) -> dict[str, dict]:
    count = rng.choice([0, 1, 1, 2] if service != "kms" else [1, 1, 2])
    return {f"id{i}": policy([_statement(rng, service, action, names, resource, 0.15)
                              for _ in range(rng.randint(1, 2))]) for i in range(count)}


def _cap(rng: random.Random, service: str, action: str, names: list[str],
         resource: str) -> dict[str, Any]:
    """A boundary or session policy: allows the service, another service, or denies."""
    other = "sqs" if service != "sqs" else "sns"
    statements = [_statement(rng, service, action, names, resource, 0.15)]
    if rng.random() < 0.4:
        statements.append({"Effect": "Allow", "Action": f"{other}:*", "Resource": "*"})
    if rng.random() < 0.3:
        statements = [{"Effect": "Allow", "Action": f"{other}:*", "Resource": "*"}]
    return policy(statements)


def _resource_statement(rng: random.Random, service: str, action: str, names: list[str],
                        resource: str, deny_rate: float) -> dict[str, Any]:
    statement = _statement(rng, service, action, names, resource, deny_rate)
    if rng.random() < 0.15:
        statement["NotPrincipal"] = {"AWS": _pick(rng, NOT_PRINCIPAL_FORMS)}
    else:
        statement["Principal"] = _pick(rng, PRINCIPAL_FORMS)
    if rng.random() < 0.15:
        key, value = _pick(rng, [("aws:PrincipalAccount", A), ("aws:PrincipalArn", ROLE),
                                 ("aws:PrincipalType", "User")])
        statement["Condition"] = {"StringEquals": {key: value}}
    return statement


def _resource_policy(rng: random.Random, service: str, action: str, names: list[str],
                     resource: str) -> dict[str, Any]:
    return policy([_resource_statement(rng, service, action, names, resource, 0.2)
                   for _ in range(rng.randint(1, 3))])


def _key_policy(rng: random.Random, key: str) -> dict[str, Any] | None:
    """A key policy built from the statements AWS documents, or none at all; about half
    enable IAM policies (a statement naming the key's account)."""
    owner = key.split(":")[4]
    root = f"arn:aws:iam::{owner}:root"
    use = ["kms:Decrypt", "kms:Encrypt", "kms:GenerateDataKey*", "kms:DescribeKey"]
    enable: list[dict[str, Any]] = [
        {"Sid": "EnableIAM", "Effect": "Allow", "Principal": {"AWS": root}, "Action": "kms:*"},
        {"Effect": "Allow", "Principal": {"AWS": owner}, "Action": "kms:*"},
        {"Effect": "Allow", "Principal": {"AWS": root}, "Action": ["kms:Decrypt", "kms:Describe*"]},
        {"Effect": "Allow", "Principal": {"AWS": ROOT_A}, "Action": ["kms:Decrypt",
                                                                     "kms:GenerateDataKey*"]},
        {"Effect": "Allow", "Principal": {"AWS": root}, "Action": "kms:*",
         "Condition": {"StringEquals": {"aws:PrincipalType": "User"}}},
    ]
    others: list[dict[str, Any]] = [
        {"Sid": "KeyUsers", "Effect": "Allow", "Principal": {"AWS": ROLE}, "Action": use},
        {"Effect": "Allow", "Principal": {"AWS": SESSION}, "Action": "kms:Decrypt"},
        {"Effect": "Allow", "Principal": {"AWS": USER}, "Action": use},
        {"Sid": "KeyAdmins", "Effect": "Allow", "Principal": {"AWS": OTHER_ROLE},
         "Action": ["kms:Create*", "kms:Put*", "kms:ScheduleKeyDeletion", "kms:Describe*"]},
        {"Effect": "Allow", "Principal": {"AWS": FOREIGN_ROLE}, "Action": use},
        {"Effect": "Deny", "Principal": "*", "Action": ["kms:ScheduleKeyDeletion",
                                                        "kms:PutKeyPolicy"]},
        {"Effect": "Deny", "NotPrincipal": {"AWS": [OTHER_ROLE, root]}, "Action": "kms:Put*"},
    ]
    if rng.random() < 0.08:
        return None
    statements = [_pick(rng, enable)] if rng.random() < 0.5 else []
    statements += rng.sample(others, rng.randint(0 if statements else 1, 2))
    return policy([dict(s, Resource="*") for s in statements])


def _case(index: int, rng: random.Random, theme: str) -> Case:
    principal, role_arn = _pick(rng, CALLERS)
    if theme == "kms":
        service, names = "kms", KMS_ACTIONS
        resource = _pick(rng, KEYS[1] if rng.random() < 0.3 else KEYS[0])
    else:
        service = _pick(rng, sorted(SERVICES))
        own, foreign, names = SERVICES[service]
        resource = _pick(rng, foreign if rng.random() < 0.25 else own)
    action = _pick(rng, names)
    if theme in ("boundary", "session") or resource.split(":")[4] == B:
        # Boundaries, session policies and the other account's resources are about the
        # account's own principals.
        principal, role_arn = _pick(rng, CALLERS[:7])
    if theme == "session":
        principal, role_arn = SESSION, ROLE
    context = derived_context(principal, role_arn)
    case = Case(index, principal, role_arn, f"{service}:{action}", resource, context)
    case.identity = _identity(rng, service, action, names, resource)
    if theme == "kms":
        case.resource_policy = _key_policy(rng, resource)
    elif theme == "resource" or rng.random() < 0.6:
        case.resource_policy = _resource_policy(rng, service, action, names, resource)
    if theme == "boundary" or (theme == "kms" and rng.random() < 0.3):
        case.boundary = _cap(rng, service, action, names, resource)
    if theme == "session" or (theme == "kms" and ":assumed-role/" in principal
                              and rng.random() < 0.3):
        case.session = _cap(rng, service, action, names, resource)
    return case


def generate_focused(seed: int, count: int, first_index: int = 0) -> list[Case]:
    """Generate count seeded cases, cycling through THEMES."""
    rng = random.Random(seed ^ 0x5EED)
    return [_case(first_index + i, rng, THEMES[i % len(THEMES)]) for i in range(count)]
