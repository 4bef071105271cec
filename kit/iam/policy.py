"""Parse IAM policy documents into frozen, precompiled structures.

Grammar follows the IAM JSON policy element reference: `Version`, `Id`, `Statement`
(one object or a list); each statement has an optional `Sid`, `Effect`, exactly one of
`Action`/`NotAction`, at most one of `Resource`/`NotResource`, at most one of
`Principal`/`NotPrincipal`, and an optional `Condition`. Anything else raises PolicyError
naming the policy, the statement index and the field. Wildcard patterns and condition values
are compiled here, once, so that evaluation does no parsing.

A statement without `Resource` or `NotResource` applies to every resource: role trust
policies have no Resource element, and identity policies always have one.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Literal

from kit.iam.conditions import Condition, parse_operator
from kit.iam.errors import PolicyError
from kit.iam.patterns import ArnPattern, Glob, arn_pattern, glob

VERSIONS = ("2012-10-17", "2008-10-17")
_POLICY_KEYS = ("Version", "Id", "Statement")
_STATEMENT_KEYS = (
    "Sid",
    "Effect",
    "Action",
    "NotAction",
    "Resource",
    "NotResource",
    "Principal",
    "NotPrincipal",
    "Condition",
)
_PRINCIPAL_KEYS = {
    "AWS": "aws",
    "Service": "service",
    "Federated": "federated",
    "CanonicalUser": "canonical_user",
}

Effect = Literal["Allow", "Deny"]


@dataclass(frozen=True, slots=True)
class PrincipalSet:
    """A Principal or NotPrincipal element: `"*"` or the named principals by type."""

    wildcard: bool = False
    aws: tuple[str, ...] = ()
    service: tuple[str, ...] = ()
    federated: tuple[str, ...] = ()
    canonical_user: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class ActionSet:
    """Action patterns matched case-insensitively, with exact names in a set for speed."""

    patterns: tuple[str, ...]
    exact: frozenset[str] = frozenset()
    globs: tuple[Glob, ...] = ()

    @classmethod
    def of(cls, patterns: tuple[str, ...]) -> ActionSet:
        """Compile action patterns."""
        exact = frozenset(p.lower() for p in patterns if "*" not in p and "?" not in p)
        globs = tuple(glob(p, ignore_case=True) for p in patterns if "*" in p or "?" in p)
        return cls(patterns, exact, globs)

    def matches(self, action: str) -> bool:
        """Say whether the (lower-cased) action matches any pattern."""
        return action in self.exact or any(g.matches(action) for g in self.globs)


@dataclass(frozen=True, slots=True)
class ResourceSet:
    """Resource patterns matched ARN segment by segment, case-sensitively."""

    patterns: tuple[str, ...]
    compiled: tuple[ArnPattern, ...] = ()

    @classmethod
    def of(cls, patterns: tuple[str, ...], variables: bool) -> ResourceSet:
        """Compile resource patterns."""
        return cls(
            patterns, tuple(arn_pattern(p, variables=variables, pad_short=True) for p in patterns)
        )

    def matches(self, resource: str, lookup: Any) -> bool:
        """Say whether the resource matches any pattern (after variable substitution)."""
        return any(p.matches(resource, lookup) for p in self.compiled)

    def excludes(self, resource: str, lookup: Any) -> bool:
        """Say whether the resource is outside every pattern, as NotResource requires.

        A pattern whose variable cannot be resolved makes the statement invalid (AWS: IAM
        policy elements: Variables and tags), so it never lets a NotResource apply.
        """
        for pattern in self.compiled:
            if pattern.match_all:
                return False
            regex = pattern.regex_for(lookup)
            if regex is None and pattern.tokens is not None:
                return False  # unresolvable variable
            if regex is not None and regex.fullmatch(resource) is not None:
                return False
        return True


@dataclass(frozen=True, slots=True)
class Statement:
    """One policy statement, compiled."""

    index: int
    effect: Effect
    sid: str | None = None
    actions: ActionSet | None = None
    not_actions: ActionSet | None = None
    resources: ResourceSet | None = None
    not_resources: ResourceSet | None = None
    principal: PrincipalSet | None = None
    not_principal: PrincipalSet | None = None
    conditions: tuple[Condition, ...] = ()


@dataclass(frozen=True, slots=True)
class Policy:
    """A parsed policy document; `name` labels it in decisions and errors."""

    statements: tuple[Statement, ...]
    version: str | None = None
    id: str | None = None
    name: str | None = None
    source: Mapping[str, Any] = field(default_factory=dict, compare=False, repr=False)

    @property
    def variables(self) -> bool:
        """Say whether policy variables are substituted (policy language 2012-10-17 only)."""
        return self.version == "2012-10-17"

    def named(self, name: str) -> Policy:
        """Return the same policy under another label."""
        return Policy(self.statements, self.version, self.id, name, self.source)


PolicyLike = Policy | Mapping[str, Any] | str


def _strings(
    value: Any, *, policy: str | None, index: int, sid: str | None, name: str
) -> tuple[str, ...]:
    """Read an element that is a string or a non-empty list of strings."""
    if isinstance(value, str):
        return (value,)
    if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
        return tuple(value)
    raise PolicyError(
        f"must be a string or a non-empty list of strings, got {value!r}",
        policy=policy,
        statement=index,
        sid=sid,
        field=name,
    )


def _principal(
    value: Any, *, policy: str | None, index: int, sid: str | None, name: str
) -> PrincipalSet:
    if value == "*":
        return PrincipalSet(wildcard=True)
    if not isinstance(value, Mapping) or not value:
        raise PolicyError(
            f'must be "*" or an object with keys {", ".join(_PRINCIPAL_KEYS)}, got {value!r}',
            policy=policy,
            statement=index,
            sid=sid,
            field=name,
        )
    found: dict[str, tuple[str, ...]] = {}
    for key, items in value.items():
        if key not in _PRINCIPAL_KEYS:
            raise PolicyError(
                f"unknown principal type {key!r}; valid types are {', '.join(_PRINCIPAL_KEYS)}",
                policy=policy,
                statement=index,
                sid=sid,
                field=f"{name}.{key}",
            )
        found[_PRINCIPAL_KEYS[key]] = _strings(
            items, policy=policy, index=index, sid=sid, name=f"{name}.{key}"
        )
    # {"AWS": "*"} names every principal, like "*" (AWS JSON policy elements: Principal).
    wildcard = "*" in found.get("aws", ())
    return PrincipalSet(wildcard=wildcard, **found)


def _conditions(
    value: Any, variables: bool, *, policy: str | None, index: int, sid: str | None
) -> tuple[Condition, ...]:
    if not isinstance(value, Mapping):
        raise PolicyError(
            f"must be an object of operator -> {{key: values}}, got {value!r}",
            policy=policy,
            statement=index,
            sid=sid,
            field="Condition",
        )
    conditions: list[Condition] = []
    for op_name, block in value.items():
        try:
            operator = parse_operator(op_name)
        except ValueError as exc:
            raise PolicyError(
                str(exc), policy=policy, statement=index, sid=sid, field=f"Condition.{op_name}"
            ) from None
        if not isinstance(block, Mapping) or not block:
            raise PolicyError(
                f"must be a non-empty object of condition key -> values, got {block!r}",
                policy=policy,
                statement=index,
                sid=sid,
                field=f"Condition.{op_name}",
            )
        for key, raw in block.items():
            items = raw if isinstance(raw, list) else [raw]
            if not items or not all(isinstance(v, str | bool | int | float) for v in items):
                raise PolicyError(
                    f"values must be strings, booleans or numbers (or a list of them), got {raw!r}",
                    policy=policy,
                    statement=index,
                    sid=sid,
                    field=f"Condition.{op_name}.{key}",
                )
            values = tuple(
                ("true" if v else "false") if isinstance(v, bool) else str(v) for v in items
            )
            conditions.append(Condition(operator, key, values, variables))
    return tuple(conditions)


def _action_patterns(
    value: Any, *, policy: str | None, index: int, sid: str | None, name: str
) -> ActionSet:
    patterns = _strings(value, policy=policy, index=index, sid=sid, name=name)
    for pattern in patterns:
        if pattern != "*" and ":" not in pattern:
            raise PolicyError(
                f"action {pattern!r} has no service prefix; write it as 'service:Action' "
                "(e.g. 'sqs:SendMessage') or '*'",
                policy=policy,
                statement=index,
                sid=sid,
                field=name,
            )
    return ActionSet.of(patterns)


def _statement(raw: Any, index: int, variables: bool, policy: str | None) -> Statement:
    sid, effect = _statement_shape(raw, index, policy)
    common = {"policy": policy, "index": index, "sid": sid}
    return Statement(
        index=index,
        effect=effect,
        sid=sid,
        actions=_action_patterns(raw["Action"], name="Action", **common)
        if "Action" in raw
        else None,
        not_actions=_action_patterns(raw["NotAction"], name="NotAction", **common)
        if "NotAction" in raw
        else None,
        resources=ResourceSet.of(_strings(raw["Resource"], name="Resource", **common), variables)
        if "Resource" in raw
        else None,
        not_resources=ResourceSet.of(
            _strings(raw["NotResource"], name="NotResource", **common), variables
        )
        if "NotResource" in raw
        else None,
        principal=_principal(raw["Principal"], name="Principal", **common)
        if "Principal" in raw
        else None,
        not_principal=_principal(raw["NotPrincipal"], name="NotPrincipal", **common)
        if "NotPrincipal" in raw
        else None,
        conditions=_conditions(raw["Condition"], variables, policy=policy, index=index, sid=sid)
        if "Condition" in raw
        else (),
    )


def _statement_shape(raw: Any, index: int, policy: str | None) -> tuple[str | None, str]:
    """Check a statement's elements before parsing them; return its Sid and Effect."""
    if not isinstance(raw, Mapping):
        raise PolicyError(
            f"a statement must be an object, got {raw!r}", policy=policy, statement=index
        )
    sid = raw.get("Sid")
    if sid is not None and not isinstance(sid, str):
        raise PolicyError(
            f"must be a string, got {sid!r}", policy=policy, statement=index, field="Sid"
        )
    where = {"policy": policy, "statement": index, "sid": sid}
    for key in raw:
        if key not in _STATEMENT_KEYS:
            raise PolicyError(
                f"unknown element {key!r}; valid elements are {', '.join(_STATEMENT_KEYS)}",
                field=key,
                **where,
            )
    effect = raw.get("Effect")
    if effect not in ("Allow", "Deny"):
        raise PolicyError(
            f'must be "Allow" or "Deny" (case-sensitive), got {effect!r}', field="Effect", **where
        )
    for first, second in (
        ("Action", "NotAction"),
        ("Resource", "NotResource"),
        ("Principal", "NotPrincipal"),
    ):
        if first in raw and second in raw:
            raise PolicyError(
                f"a statement takes {first} or {second}, not both", field=second, **where
            )
    if "Action" not in raw and "NotAction" not in raw:
        raise PolicyError("a statement needs Action or NotAction", field="Action", **where)
    return sid, effect


def parse_policy(document: PolicyLike, *, name: str | None = None) -> Policy:
    """Parse a policy document (JSON text, dict or Policy) into a compiled Policy."""
    if isinstance(document, Policy):
        return document if name is None or document.name == name else document.named(name)
    if isinstance(document, str):
        return _parse_text(document, name)
    return _parse_mapping(document, name)


@lru_cache(maxsize=1024)
def _parse_text(text: str, name: str | None) -> Policy:
    # JSON text is hashable, so repeated evaluations of the same document parse it once.
    try:
        document = json.loads(text)
    except json.JSONDecodeError as exc:
        raise PolicyError(
            f"not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}", policy=name
        ) from None
    return _parse_mapping(document, name)


def _parse_mapping(document: Any, name: str | None) -> Policy:
    if not isinstance(document, Mapping):
        raise PolicyError(
            f"a policy document must be a JSON object, got {type(document).__name__}", policy=name
        )
    for key in document:
        if key not in _POLICY_KEYS:
            raise PolicyError(
                f"unknown top-level element {key!r}; valid elements are {', '.join(_POLICY_KEYS)}",
                policy=name,
                field=key,
            )
    version = document.get("Version")
    if version is not None and version not in VERSIONS:
        raise PolicyError(
            f'unknown policy language version {version!r}; use "2012-10-17"',
            policy=name,
            field="Version",
        )
    policy_id = document.get("Id")
    if policy_id is not None and not isinstance(policy_id, str):
        raise PolicyError(f"must be a string, got {policy_id!r}", policy=name, field="Id")
    if "Statement" not in document:
        raise PolicyError("a policy needs a Statement element", policy=name, field="Statement")
    raw = document["Statement"]
    raws = raw if isinstance(raw, list) else [raw]
    variables = version == "2012-10-17"
    statements = tuple(_statement(item, index, variables, name) for index, item in enumerate(raws))
    return Policy(statements, version, policy_id, name, document)
