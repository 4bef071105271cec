"""Who is calling, and how a Principal / NotPrincipal element names them.

How a resource-based policy names the caller changes the decision in the same account
(AWS: policy evaluation logic, resource-based policies), so a match has a kind:
- DIRECT: the caller itself (its role-session ARN, IAM user ARN, federated-user ARN,
  service principal) or `"*"`. Such a grant is not limited by an implicit deny in
  identity policies, permissions boundaries or session policies.
- PARENT: the role behind a role session, or the IAM user behind a federated-user session.
  Such a grant is limited by an implicit deny in a permissions boundary or session policy.
- ACCOUNT: the caller's account (`arn:aws:iam::ACCT:root` or bare `ACCT`). In the same
  account this delegates to the account's identity policies; it does not grant by itself.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from functools import lru_cache

from kit.iam.policy import PrincipalSet


class Match(enum.IntEnum):
    """How well a Principal element names the caller (higher is more direct)."""

    NONE = 0
    ACCOUNT = 1
    PARENT = 2
    DIRECT = 3


@dataclass(frozen=True, slots=True)
class Caller:
    """The identity chain of the request's principal."""

    arn: str
    kind: str  # user | role_session | role | federated_user | root | service | other
    partition: str | None
    account: str | None
    role_name: str | None = None  # for role sessions and roles (names are unique per account)
    role_arn: str | None = None  # for role sessions: the role ARN (with its path if known)
    user_arn: str | None = None  # for federated users: the IAM user who federated

    @property
    def is_session(self) -> bool:
        """Say whether the caller is a session principal (role session or federated user)."""
        return self.kind in ("role_session", "federated_user")


@lru_cache(maxsize=4096)
def parse_caller(arn: str, role_arn: str | None = None, account: str | None = None) -> Caller:
    """Classify a principal ARN (or service principal name) into a Caller."""
    parts = arn.split(":", 5)
    if len(parts) != 6 or parts[0] != "arn":
        kind = (
            "service"
            if arn.endswith(".amazonaws.com") or arn.endswith(".amazonaws.com.cn")
            else "other"
        )
        return Caller(arn, kind, None, account)
    _, partition, service, _, arn_account, resource = parts
    account = account or arn_account or None
    if service == "iam" and resource == "root":
        return Caller(arn, "root", partition, account)
    if service == "iam" and resource.startswith("user/"):
        return Caller(arn, "user", partition, account)
    if service == "iam" and resource.startswith("role/"):
        name = resource.rsplit("/", 1)[-1]
        return Caller(arn, "role", partition, account, role_name=name, role_arn=arn)
    if service == "sts" and resource.startswith("assumed-role/"):
        name = resource.split("/")[1]
        derived = f"arn:{partition}:iam::{arn_account}:role/{name}"
        return Caller(arn, "role_session", partition, account, name, role_arn or derived)
    if service == "sts" and resource.startswith("federated-user/"):
        user = resource.split("/", 1)[1]
        user_arn = f"arn:{partition}:iam::{arn_account}:user/{user}"
        return Caller(arn, "federated_user", partition, account, user_arn=user_arn)
    return Caller(arn, "other", partition, account)


def _account_of(value: str) -> str | None:
    """Return the account a principal value names as a whole, or None."""
    if len(value) == 12 and value.isdigit():
        return value
    parts = value.split(":")
    if len(parts) == 6 and parts[0] == "arn" and parts[2] == "iam" and parts[5] == "root":
        return parts[4]
    return None


def _names_role(value: str, caller: Caller) -> bool:
    """Say whether an AWS principal value is the caller's role (any path; names ignore case)."""
    parts = value.split(":", 5)
    if len(parts) != 6 or parts[2] != "iam" or not parts[5].startswith("role/"):
        return False
    return (
        parts[1] == caller.partition
        and parts[4] == caller.account
        and parts[5].rsplit("/", 1)[-1].lower() == (caller.role_name or "").lower()
    )


def _aws_match(value: str, caller: Caller) -> Match:
    if value == "*":
        return Match.DIRECT
    if value == caller.arn:
        return Match.DIRECT
    if caller.kind == "role" and _names_role(value, caller):
        return Match.DIRECT
    if caller.kind == "role_session" and _names_role(value, caller):
        return Match.PARENT
    if caller.kind == "federated_user" and value == caller.user_arn:
        return Match.PARENT
    account = _account_of(value)
    if account is not None and account == caller.account:
        return Match.ACCOUNT
    return Match.NONE


def principal_match(principals: PrincipalSet, caller: Caller) -> Match:
    """Return the most direct way a Principal element names the caller."""
    if principals.wildcard:
        return Match.DIRECT
    best = Match.NONE
    if caller.kind in ("service", "other"):
        names = principals.service + principals.federated + principals.canonical_user
        return Match.DIRECT if caller.arn in names or caller.arn in principals.aws else best
    for value in principals.aws:
        found = _aws_match(value, caller)
        if found > best:
            best = found
            if best is Match.DIRECT:
                break
    return best


def _layers_named(principals: PrincipalSet, caller: Caller) -> list[bool]:
    """Say, for each layer of the caller (account, role or IAM user, itself), if it is listed."""
    if principals.wildcard or "*" in principals.aws:
        return [True]
    if caller.kind in ("service", "other"):
        names = principals.service + principals.federated + principals.canonical_user
        return [caller.arn in names or caller.arn in principals.aws]
    values = principals.aws
    layers = [any(_account_of(v) == caller.account for v in values)]
    if caller.kind == "root":
        return layers
    if caller.kind in ("role", "role_session"):
        layers.append(any(_names_role(v, caller) for v in values))
    if caller.kind == "federated_user":
        layers.append(caller.user_arn in values)
    if caller.kind != "role":
        layers.append(caller.arn in values)
    return layers


def not_principal_applies(principals: PrincipalSet, caller: Caller, effect: str) -> bool:
    """Say whether a NotPrincipal statement applies to the caller.

    AWS may evaluate the account, then the role (or IAM user), then the session (AWS JSON
    policy elements: NotPrincipal), so each layer is judged on its own: a Deny applies when
    any layer is not listed, and an Allow reaches the caller only when no layer is listed.
    Both readings are the cautious ones: listing a session alone exempts it from nothing.
    """
    named = _layers_named(principals, caller)
    if effect == "Deny":
        return not all(named)
    return not any(named)
