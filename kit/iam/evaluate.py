"""Decide whether AWS would allow a request, following the documented evaluation logic.

Hand-written on purpose: no maintained Python library evaluates AWS policies faithfully
(conditions, NotX elements, boundaries, session and resource policies, SCPs), and the one
complete open evaluator, @cloud-copilot/iam-simulate, is AGPL JavaScript. It serves only as
a differential oracle in the tests (tests/unit/iam/test_differential.py) and is never
imported or shipped.

The order of the decision (AWS: policy evaluation logic, "How AWS enforcement code logic
evaluates requests to allow or deny access"):
1. An applicable Deny statement in any policy (SCP, resource, identity, boundary, session)
   is final: ExplicitDeny.
2. Every SCP level must allow the request, or it is implicitly denied.
3. Same account: a resource-based policy that names the caller itself (role-session ARN,
   IAM user ARN, `"*"`) allows on its own; one that names the caller's role allows when the
   permissions boundary and session policy (if any) also allow; one that names the account
   delegates to identity policies.
4. Otherwise identity policies must allow, and so must the permissions boundary and the
   session policies when present. Two kinds of resource policy must name the caller's
   account (or the caller) for identity policies to count at all: a role trust policy,
   and a KMS key policy (AWS KMS: "Default key policy", "Allows access to the AWS account
   and enables IAM policies"). Every KMS key has a key policy, so a KMS key request without
   one is judged as if its key policy named nobody.
Cross-account: the identity side (identity AND boundary AND session) and the resource
policy must both allow.

Evaluation runs on every request in the kit's gateway, so every pattern is compiled when a
policy is parsed; pass Policy objects (parse_policy) rather than dicts in hot paths.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from kit.iam.conditions import conditions_hold
from kit.iam.policy import Policy, PolicyLike, Statement, parse_policy
from kit.iam.principals import Caller, Match, not_principal_applies, parse_caller, principal_match
from kit.iam.request import Request

EffectName = Literal["Allow", "ExplicitDeny", "ImplicitDeny"]
PolicyKind = Literal["identity", "boundary", "session", "resource", "scp"]
Policies = Iterable[PolicyLike] | Mapping[str, PolicyLike]
ScpLevel = PolicyLike | Sequence[PolicyLike]


@dataclass(frozen=True, slots=True)
class StatementRef:
    """A statement that took part in a decision, and where it came from."""

    policy: str  # the policy's name, or "<kind>[<position>]"
    kind: PolicyKind
    index: int
    sid: str | None
    effect: Literal["Allow", "Deny"]

    def __str__(self) -> str:
        sid = f" (Sid {self.sid!r})" if self.sid else ""
        return f"{self.kind} policy {self.policy!r} Statement[{self.index}]{sid}"


@dataclass(frozen=True, slots=True)
class Decision:
    """The outcome, the statements that decided it, and a one-line reason."""

    effect: EffectName
    deciding: tuple[StatementRef, ...] = ()
    reason: str = ""

    @property
    def allowed(self) -> bool:
        """Say whether the request is allowed."""
        return self.effect == "Allow"


# --- matching one statement ----------------------------------------------------------------


def _action_applies(statement: Statement, action: str) -> bool:
    if statement.actions is not None:
        return statement.actions.matches(action)
    return statement.not_actions is not None and not statement.not_actions.matches(action)


def _resource_applies(statement: Statement, request: Request) -> bool:
    lookup = request.normalized_context.variable
    if statement.resources is not None:
        return statement.resources.matches(request.resource, lookup)
    if statement.not_resources is not None:
        return statement.not_resources.excludes(request.resource, lookup)
    return True


def _principal_applies(statement: Statement, caller: Caller, has_boundary: bool) -> Match:
    if statement.principal is not None:
        return principal_match(statement.principal, caller)
    if statement.not_principal is not None:
        # AWS: a Deny with NotPrincipal in a resource-based policy always denies an IAM
        # principal that has a permissions boundary (Permissions boundaries for IAM entities).
        if statement.effect == "Deny" and has_boundary and caller.kind not in ("service", "other"):
            return Match.DIRECT
        return (
            Match.DIRECT
            if not_principal_applies(statement.not_principal, caller, statement.effect)
            else Match.NONE
        )
    # A resource-based policy statement without a principal names nobody.
    return Match.NONE


@dataclass(slots=True)
class _Scan:
    allows: list[tuple[StatementRef, Match]] = field(default_factory=list)
    denies: list[StatementRef] = field(default_factory=list)


def _scan(
    policy: Policy,
    kind: PolicyKind,
    request: Request,
    caller: Caller | None,
    has_boundary: bool,
    out: _Scan,
) -> None:
    """Collect the statements of one policy that apply to the request."""
    label = policy.name or kind
    for statement in policy.statements:
        if not _action_applies(statement, request.normalized_action):
            continue
        if not _resource_applies(statement, request):
            continue
        match = Match.DIRECT
        if caller is not None:  # resource-based policy: the statement must name the caller
            match = _principal_applies(statement, caller, has_boundary)
            if match is Match.NONE:
                continue
        if statement.conditions and not conditions_hold(
            statement.conditions, request.normalized_context
        ):
            continue
        ref = StatementRef(label, kind, statement.index, statement.sid, statement.effect)
        if statement.effect == "Deny":
            out.denies.append(ref)
        else:
            out.allows.append((ref, match))


def matching_statements(
    policy: Policy, kind: PolicyKind, request: Request, caller: Caller | None, has_boundary: bool
) -> tuple[list[StatementRef], list[StatementRef]]:
    """Return the (allow, deny) statements of one policy that apply to the request.

    Pass `caller` for resource-based policies, whose statements must name the caller.
    """
    found = _Scan()
    _scan(policy, kind, request, caller, has_boundary, found)
    return [ref for ref, _ in found.allows], found.denies


# --- inputs --------------------------------------------------------------------------------


def label_policies(policies: Policies, kind: str) -> list[Policy]:
    """Parse policies and give each a label: its name, or `<kind>[<position>]`."""
    if isinstance(policies, Mapping) and not _looks_like_document(policies):
        return [parse_policy(doc, name=name) for name, doc in policies.items()]
    if isinstance(policies, str | Policy) or _looks_like_document(policies):
        policies = [policies]  # type: ignore[list-item]
    result = []
    for position, doc in enumerate(policies):  # type: ignore[arg-type]
        policy = parse_policy(doc)
        result.append(policy if policy.name else policy.named(f"{kind}[{position}]"))
    return result


def _looks_like_document(value: object) -> bool:
    return isinstance(value, Mapping) and "Statement" in value


def label_policy(policy: PolicyLike, label: str) -> Policy:
    """Parse one policy and label it, unless it already has a name."""
    parsed = parse_policy(policy)
    return parsed if parsed.name else parsed.named(label)


def label_scp_levels(scps: Sequence[ScpLevel]) -> list[list[Policy]]:
    """Parse SCP levels: each level is one policy or a list of policies."""
    levels = []
    for position, level in enumerate(scps):
        members = [level] if isinstance(level, str | Policy | Mapping) else list(level)
        levels.append([label_policy(p, f"scp[{position}][{i}]") for i, p in enumerate(members)])
    return levels


def is_kms_key(resource: str) -> bool:
    """Say whether an ARN names a KMS key (not an alias), whose key policy gates IAM policies."""
    parts = resource.split(":", 5)
    return len(parts) == 6 and parts[2] == "kms" and parts[5].startswith("key/")


def _resource_account(request: Request, caller: Caller) -> str | None:
    if request.resource_account:
        return request.resource_account
    parts = request.resource.split(":", 5)
    if len(parts) == 6 and parts[0] == "arn" and parts[4]:
        return parts[4]
    return caller.account


# --- the decision --------------------------------------------------------------------------


def evaluate(
    request: Request,
    identity_policies: Policies = (),
    *,
    boundary: PolicyLike | None = None,
    session_policies: Policies = (),
    resource_policy: PolicyLike | None = None,
    scps: Sequence[ScpLevel] = (),
    principal_account: str | None = None,
) -> Decision:
    """Decide Allow / ExplicitDeny / ImplicitDeny for a request, as AWS would.

    `identity_policies` and `session_policies` are policies (or a name -> policy mapping);
    `scps` lists the levels of the organization (root, OUs, account), each one policy or a
    list of the policies attached at that level: every level must allow.
    `principal_account` overrides the account taken from the principal ARN.
    """
    return decide(
        request,
        label_policies(identity_policies, "identity"),
        boundary=label_policy(boundary, "boundary") if boundary is not None else None,
        sessions=label_policies(session_policies, "session"),
        resource=label_policy(resource_policy, "resource") if resource_policy is not None else None,
        scp_levels=label_scp_levels(scps),
        principal_account=principal_account,
        trust=False,
    )


def _refs(scan: _Scan) -> list[StatementRef]:
    return [ref for ref, _ in scan.allows]


@dataclass(slots=True)
class _Layers:
    """What each policy layer contributed to one request (and whether it was present)."""

    has_boundary: bool
    has_sessions: bool
    identity: _Scan = field(default_factory=_Scan)
    bounded: _Scan = field(default_factory=_Scan)
    session: _Scan = field(default_factory=_Scan)
    resource: _Scan = field(default_factory=_Scan)
    levels: list[_Scan] = field(default_factory=list)

    def denies(self) -> list[StatementRef]:
        """Return the Deny statements that apply, SCPs first."""
        scans = (*self.levels, self.resource, self.identity, self.bounded, self.session)
        return [ref for scan in scans for ref in scan.denies]

    def granted(self, match: Match) -> list[StatementRef]:
        """Return the resource policy's Allow statements that name the caller as `match`."""
        return [ref for ref, m in self.resource.allows if m is match]

    @property
    def role_grant(self) -> bool:
        """Say whether the resource policy allows the caller's role (not the session)."""
        return bool(self.granted(Match.PARENT))


def decide(
    request: Request,
    identities: list[Policy],
    *,
    boundary: Policy | None,
    sessions: list[Policy],
    resource: Policy | None,
    scp_levels: list[list[Policy]],
    principal_account: str | None,
    trust: bool,
) -> Decision:
    """Decide on parsed, labelled policies (see evaluate); `trust` marks a role trust policy."""
    caller = parse_caller(request.principal, request.role_arn, principal_account)
    has_boundary = boundary is not None and caller.kind != "root"
    delegates = "trust" if trust else "key" if is_kms_key(request.resource) else None
    layers = _Layers(has_boundary=has_boundary, has_sessions=bool(sessions))
    for policy in identities:
        _scan(policy, "identity", request, None, has_boundary, layers.identity)
    if boundary is not None:
        _scan(boundary, "boundary", request, None, has_boundary, layers.bounded)
    for policy in sessions:
        _scan(policy, "session", request, None, has_boundary, layers.session)
    if resource is not None:
        _scan(resource, "resource", request, caller, has_boundary, layers.resource)
    for level in scp_levels:
        found = _Scan()
        for policy in level:
            _scan(policy, "scp", request, None, has_boundary, found)
        layers.levels.append(found)

    # 1. Explicit deny anywhere is final.
    denies = layers.denies()
    if denies:
        return Decision("ExplicitDeny", tuple(denies), f"explicitly denied by {denies[0]}")
    # 2. Every SCP level must allow.
    for position, level in enumerate(layers.levels):
        if not level.allows:
            return Decision(
                "ImplicitDeny",
                (),
                f"no SCP at organization level {position} allows {request.action}",
            )
    # 3. and 4. The resource-based policy, the identity side, or both.
    return _grant(request, caller, delegates, layers)


def _grant(
    request: Request, caller: Caller, delegates: str | None, layers: _Layers
) -> Decision:
    """Decide from the Allow statements, once no Deny applies and every SCP level allows."""
    scp_refs = [ref for level in layers.levels for ref in _refs(level)]
    direct = layers.granted(Match.DIRECT)
    parent = layers.granted(Match.PARENT)
    account = layers.granted(Match.ACCOUNT)
    boundary_ok = not layers.has_boundary or bool(layers.bounded.allows)
    session_ok = not layers.has_sessions or bool(layers.session.allows)
    identity_allows = bool(layers.identity.allows) or caller.kind == "root"
    identity_ok = identity_allows and boundary_ok and session_ok
    identity_path = _refs(layers.identity) + _refs(layers.bounded) + _refs(layers.session)

    # Service principals and other non-IAM callers have no identity policies: only the
    # resource-based policy can grant them access.
    if caller.kind in ("service", "other"):
        if direct:
            return Decision("Allow", tuple(scp_refs + direct), f"allowed by {direct[0]}")
        return Decision(
            "ImplicitDeny", (), f"no resource-based policy statement allows {caller.arn}"
        )

    same_account = _resource_account(request, caller) == caller.account
    if same_account:
        if direct:
            return Decision("Allow", tuple(scp_refs + direct), f"allowed by {direct[0]}")
        if parent and boundary_ok and session_ok:
            return Decision(
                "Allow",
                tuple(scp_refs + parent + _refs(layers.bounded) + _refs(layers.session)),
                f"allowed by {parent[0]}",
            )
        # A trust or key policy must name the caller (or its account) for identity policies
        # to count.
        if identity_ok and (not delegates or account or parent):
            return Decision(
                "Allow",
                tuple(scp_refs + account + identity_path),
                f"allowed by {identity_path[0] if identity_path else 'the account root user'}",
            )
    elif identity_ok and (direct or parent or account):
        granted = direct + parent + account
        return Decision(
            "Allow",
            tuple(scp_refs + granted + identity_path),
            f"allowed by {granted[0]} and the identity policies",
        )
    return Decision("ImplicitDeny", (), _missing(request, caller, same_account, delegates,
                                                 layers))


def _missing(
    request: Request, caller: Caller, same_account: bool, delegates: str | None, found: _Layers
) -> str:
    """Name the layer that lacked an Allow, for the decision's reason."""
    boundary_missing = found.has_boundary and not found.bounded.allows
    session_missing = found.has_sessions and not found.session.allows
    if delegates == "trust" and not found.resource.allows:
        return "the trust policy does not name this principal"
    if delegates == "key" and not found.resource.allows:
        return (f"the KMS key policy does not allow {request.action} to {caller.arn} or its "
                "account, so identity policies do not count")
    if not same_account and not found.resource.allows:
        return f"cross-account request: no resource-based policy statement allows {caller.arn}"
    # A grant to the caller's role is cut by the boundary or session policy, not by identity.
    if found.role_grant and boundary_missing:
        return (
            "the resource policy names the role, but the permissions boundary does not allow "
            f"{request.action}"
        )
    if found.role_grant and session_missing:
        return f"the resource policy names the role, but no session policy allows {request.action}"
    if not found.identity.allows and caller.kind != "root":
        return f"no identity-based policy allows {request.action} on {request.resource}"
    if boundary_missing:
        return f"the permissions boundary does not allow {request.action}"
    if session_missing:
        return f"no session policy allows {request.action}"
    return f"no policy allows {request.action}"
