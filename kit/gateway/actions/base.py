"""What every service mapping shares: the Call and Check records, the catalogue lookups."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from kit.iam import CatalogueError, action_info
from kit.iam.context import ContextValue

REGION = "us-east-1"


class Names(Protocol):
    """Turns resource names into the ARNs the emulator gave them."""

    def iam_arn(self, kind: str, name: str) -> str | None:
        """The ARN (with its path) of the IAM role/user/group/instance-profile `name`."""
        ...

    def secret_arn(self, name: str, region: str) -> str | None:
        """The full ARN (with its random suffix) of the secret `name` in `region`."""
        ...

    def partition_key(self, table_arn: str) -> str | None:
        """The partition key attribute of a DynamoDB table or index ARN (None: none)."""
        ...


@dataclass(frozen=True, slots=True)
class Check:
    """One authorization: an IAM action on one resource (with keys of its own, e.g. those of
    a KMS request a service makes on the caller's behalf)."""

    action: str  # service:Action, as the catalogue spells it
    resource: str  # an ARN, or "*"
    context: tuple[tuple[str, ContextValue], ...] = ()


@dataclass(frozen=True, slots=True)
class Call:
    """One request as IAM sees it."""

    service: str  # the signing name: sqs, sts, iam, s3, secretsmanager, rds, dynamodb
    operation: str  # the wire operation, e.g. SendMessageBatch
    protocol: str  # json | query | rest-xml: the error reply must use it
    checks: tuple[Check, ...] = ()  # empty: unmapped, the gateway denies
    params: Mapping[str, Any] = field(default_factory=dict)
    context: Mapping[str, ContextValue] = field(default_factory=dict)  # request keys
    changes_policy: bool = False  # the call may change policies, tags or resource policies
    # Asked only when the object the call reads does not exist: allowed, the miss is
    # answered as the emulator answers it (404); denied, AWS hides the miss (403).
    if_missing: Check | None = None
    problem: str = ""  # why the call could not be mapped

    @property
    def mapped(self) -> bool:
        """Say whether the call was mapped to at least one check."""
        return bool(self.checks)


@dataclass(frozen=True, slots=True)
class Scope:
    """Where a request runs: the caller's account, the signed region, the name resolver."""

    account: str
    region: str = REGION
    names: Names | None = None


def known(service: str, operation: str) -> tuple[str, tuple[str, ...]] | None:
    """The catalogue's spelling of `service:operation` and its resource types' names."""
    try:
        info = action_info(f"{service}:{operation}")
    except CatalogueError:
        return None
    return info.qualified, tuple(t.name for t in info.resource_types)


def unknown(service: str, operation: str, protocol: str, params: Mapping[str, Any]) -> Call:
    """An unmapped call: the operation is no action of the IAM catalogue."""
    return Call(service, operation, protocol, params=params,
                problem=f"{service}:{operation} is not an action of the IAM catalogue")


def checks(action: str, resources: list[str]) -> tuple[Check, ...]:
    """One check per named resource; "*" when the request names none (list calls)."""
    return tuple(Check(action, r) for r in dict.fromkeys(resources)) or (Check(action, "*"),)
