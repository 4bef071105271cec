"""What each role of final.iam may do: AWS's decision per (action, resource).

final.iam (layout in kit/checks/least_privilege.py) holds the roles as the emulator has them
and the resource-based policies of the scenario's resources. A decision here weighs what
AWS weighs: identity policies (inline and managed), the permissions boundary, the resource's
own policy (a queue, bucket or secret policy, a KMS key policy) and explicit denies in any
of them, with `decide`, the evaluator the kit's gateway uses. The request is the one AWS
would see from an SDK: a role session over TLS, in the resource's region.

`<resource>.kms_key` names the customer managed KMS key a resource is encrypted with; the
reader adds it (with its key policy) only when the resource uses one. Key use is asked as
AWS sees it both ways: called directly, and through each service whose resource uses the
key (kms:ViaService, the service's encryption context: SQS and S3 call KMS on the caller's
behalf, kit/gateway/encryption.py); a role may use the key if either is allowed.

An S3 bucket `<name>` also stands for its objects as `<name>/*`, probed with one object
(`OBJECT_PROBE`): object actions are asked on it, bucket actions on the bucket.

A policy that does not parse fails closed, as in the gateway (kit/gateway/authz.py): a role
whose policies do not all parse is allowed nothing, and neither is anyone on a resource
whose policy does not parse (AWS would have refused to store it).

Keys the gateway sets at run time with values no static check can know are judged over
their range (kit/iam/ranges.py): aws:CurrentTime and aws:EpochTime any time of the run,
from `since` (its start, epoch seconds) to `until` (when final.iam was read);
aws:SourceIp any loopback address (the gateway listens on loopback only); and
aws:PrincipalTag/* the role's `tags` as read, or any tags when they were not read;
aws:userid the role's `id` (RoleId), a colon and any session name; aws:TokenIssueTime of a
role's session any time of the run (the gateway sets it from when the kit issued it). A
statement whose conditions hold over the whole range counts as unconditional (an Allow
grants, a Deny denies); one that fails for some value of it is conditional and counts for
nothing: a grant must not hide behind a condition every request of the run meets, and a
Deny that some request escapes does not keep the grant out. The window is the run's, not
"from now on for ever": a grant that expires in 2100 (or an hour after the deploy) is
in force for every request of the run, and a grant that starts after the run is not.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from kit.iam.catalogue import resource_types, service_actions
from kit.iam.context import ContextValue
from kit.iam.errors import PolicyError
from kit.iam.evaluate import Decision, StatementRef, decide
from kit.iam.policy import Policy, parse_policy
from kit.iam.ranges import AddressRange, OpenRange, PrefixedRange, TimeRange
from kit.iam.request import Request

KEY_SUFFIX = ".kms_key"
OBJECTS = "/*"  # `<bucket name>/*`: the bucket's objects
OBJECT_PROBE = "kit-probe.json"  # the object that stands for them
DEFAULT_REGION = "us-east-1"
# When final.iam has no `since` / `until` (a history of an older kit): a day of 2026.
DEFAULT_WINDOW = (1767225600.0, 1767312000.0)  # 2026-01-01T00:00:00Z for a day


@dataclass(frozen=True, slots=True)
class Role:
    """A role with its identity policies and boundary, parsed."""

    name: str
    arn: str
    trust: Any
    policies: tuple[Policy, ...]
    boundary: Policy | None
    problem: str | None = None  # the first of its policies that does not parse
    tags: Mapping[str, str] | None = None  # None: not read, so any tags
    unique_id: str | None = None  # RoleId: aws:userid is `<RoleId>:<session name>`


@dataclass(frozen=True, slots=True)
class Grant:
    """An (action, resource) a role may perform, and the statements that grant it."""

    action: str
    resource: str  # the resource's name in final.iam, or "*"
    arn: str
    granted_by: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class State:
    """final.iam, parsed once: roles, resources by name, resource policies by ARN."""

    account: str
    harness: str
    resources: Mapping[str, str]
    policies: Mapping[str, Policy]  # labelled with the resource's name
    roles: Mapping[str, Role]
    problems: Mapping[str, str]  # ARN -> why its resource policy does not parse
    key_users: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # key -> ARNs
    window: tuple[float, float] = DEFAULT_WINDOW  # final.iam since, until: the run's time
    # final.iam assumed_by (team mode): role -> the service principal that assumes it;
    # None: every role is assumed by the harness
    assumed_by: Mapping[str, str] | None = None

    def arn(self, name: str) -> str:
        """The ARN of a resource name, `*`, or a literal ARN given instead of a name."""
        return self.resources.get(name, name)

    def decide(self, role: Role, action: str, resource: str) -> Decision:
        """AWS's decision on `action` by a session of `role` on a resource (name or ARN);
        key use is allowed if it is allowed directly or through a service that uses it."""
        arn = self.arn(resource)
        if role.problem or arn in self.problems:
            return Decision("ImplicitDeny", (), role.problem or self.problems[arn])
        first = None
        known = {**runtime_keys(self.window), **principal_tags(role.tags),
                 "aws:userid": PrefixedRange(f"{role.unique_id}:" if role.unique_id else ""),
                 # a role session's credentials are issued during the run
                 "aws:TokenIssueTime": TimeRange(*self.window)}
        for keys in (_context(arn), *(_via(user, self.account)
                                      for user in self.key_users.get(arn, ()))):
            request = Request(_session(role.arn), action, arn, {**known, **keys}, role.arn)
            decision = decide(request, list(role.policies), boundary=role.boundary,
                              sessions=[], resource=self.policies.get(arn), scp_levels=[],
                              principal_account=None, trust=False)
            if decision.allowed:
                return decision
            first = first or decision
        assert first is not None
        return first


def load(iam: Mapping[str, Any]) -> State:
    """Parse final.iam; a policy that does not parse is kept as the problem it is."""
    roles = {}
    for name, role in iam["roles"].items():
        where = f"final.iam.roles.{name}"
        parsed, problems = _parse_all(role["policies"], f"{where}.policies")
        boundary, bad_boundary = _parse_all({"boundary": role.get("boundary")}, where)
        problem = next((f"the role's policies do not parse, so none is applied: {why}"
                        for why in (*problems.values(), *bad_boundary.values())), None)
        roles[name] = Role(name, role["arn"], role["trust"], tuple(parsed.values()),
                           boundary.get("boundary"), problem, role.get("tags"),
                           role.get("id"))
    resources = dict(iam["resources"])
    resources |= {f"{name}{OBJECTS}": f"{arn}/{OBJECT_PROBE}" for name, arn in
                  iam["resources"].items() if arn.startswith("arn:aws:s3:::") and "/" not in arn}
    parsed, problems = _parse_all(iam.get("resource_policies") or {},
                                  "final.iam.resource_policies")
    users: dict[str, tuple[str, ...]] = {}
    for name, key in resources.items():
        owner = resources.get(name.removesuffix(KEY_SUFFIX)) if name.endswith(KEY_SUFFIX) \
            else None
        if owner:
            users[key] = (*users.get(key, ()), owner)
    policies = {resources.get(name, name): policy for name, policy in parsed.items()}
    # A bucket's policy is its objects' policy too.
    policies |= {arn: policies[arn.rsplit("/", 1)[0]] for arn in resources.values()
                 if arn.endswith(f"/{OBJECT_PROBE}") and arn.rsplit("/", 1)[0] in policies}
    return State(iam["account"], iam["harness"], resources, policies, roles,
                 {resources.get(name, name): f"the resource policy does not parse: {why}"
                  for name, why in problems.items()}, users,
                 _window(iam), iam.get("assumed_by"))


def _window(iam: Mapping[str, Any]) -> tuple[float, float]:
    """(since, until) of final.iam; the default window where either is missing."""
    since, until = iam.get("since"), iam.get("until")
    if not isinstance(since, int | float) or not isinstance(until, int | float):
        return DEFAULT_WINDOW
    return float(since), float(max(since, until))


def runtime_keys(window: tuple[float, float]) -> dict[str, ContextValue]:
    """The keys the gateway sets per request from its clock and the caller's address, as
    ranges: any time of the window (since, until), any loopback address."""
    return {"aws:CurrentTime": TimeRange(*window),
            "aws:EpochTime": TimeRange(*window, epoch=True), "aws:SourceIp": AddressRange()}


def caller_keys(window: tuple[float, float], tags: Mapping[str, str] | None = None
                ) -> dict[str, ContextValue]:
    """The keys of an SDK call by a principal the state does not describe (the harness, an
    outsider): over TLS, at any time of the window, from any loopback address, with any
    tags unless given."""
    return {"aws:SecureTransport": True, **runtime_keys(window), **principal_tags(tags),
            "aws:userid": PrefixedRange()}


def principal_tags(tags: Mapping[str, str] | None) -> dict[str, ContextValue]:
    """aws:PrincipalTag/* of a principal with these tags; None: any tags (or none)."""
    if tags is None:
        return {"aws:PrincipalTag/*": OpenRange()}
    return {f"aws:PrincipalTag/{key}": value for key, value in tags.items()}


def grants(state: State, role: Role, services: tuple[str, ...]) -> list[Grant]:
    """Every (action, resource) of the universe of `services` that the role may perform."""
    found = []
    for action, name, arn in universe(services, tuple(sorted(state.resources.items()))):
        decision = state.decide(role, action, name)
        if decision.allowed:
            found.append(Grant(action, name, arn, grant_labels(decision.deciding)))
    return found


@lru_cache(maxsize=16)
def universe(services: tuple[str, ...], resources: tuple[tuple[str, str], ...]
             ) -> tuple[tuple[str, str, str], ...]:
    """(action, resource name, arn) to probe: each action on each resource of its service,
    and on `*` when the action has no resource type (the only resource it can name). A
    resource known under two names (a key two queues share) is probed once."""
    seen: set[str] = set()
    named = []
    for name, arn in resources:
        if arn not in seen:
            seen.add(arn)
            named.append((name, arn))
    out = []
    for service in services:
        for action in service_actions(service):
            types = {t.name for t in resource_types(action)}
            if not types:
                out.append((action, "*", "*"))
                continue
            out += [(action, name, arn) for name, arn in named
                    if arn.split(":")[2] == service and _fits(types, arn)]
    return tuple(out)


def _fits(types: set[str], arn: str) -> bool:
    """Whether an action of these resource types can act on `arn`: an S3 object action on
    an object, a bucket action on a bucket, a DynamoDB table action on a table, an index
    action on an index (other services: any of their resources)."""
    if arn.startswith("arn:aws:dynamodb:"):
        return ("index" if "/index/" in arn else "stream" if "/stream/" in arn
                else "table") in types
    if not arn.startswith("arn:aws:s3:::"):
        return True
    return ("object" if "/" in arn else "bucket") in types


def label(ref: StatementRef) -> str:
    """A statement as findings name it: a resource policy by its resource's name."""
    if ref.kind != "resource":
        return str(ref)
    sid = f" (Sid {ref.sid!r})" if ref.sid else ""
    return f"resource policy of {ref.policy} Statement[{ref.index}]{sid}"


def grant_labels(refs: tuple[StatementRef, ...]) -> tuple[str, ...]:
    """The statements that grant (identity and resource policies), as findings name them;
    boundaries and session policies only let a grant through."""
    return tuple(label(ref) for ref in refs if ref.kind in ("identity", "resource"))


def _parse_all(documents: Mapping[str, Any], where: str
               ) -> tuple[dict[str, Policy], dict[str, str]]:
    """(parsed policies, problems) by name; a None document is left out."""
    parsed, problems = {}, {}
    for name, document in documents.items():
        if document is None:
            continue
        try:
            parsed[name] = parse_policy(document, name=name)
        except PolicyError as exc:
            problems[name] = f"{where}.{name}: {exc}"
    return parsed, problems


def _session(role_arn: str) -> str:
    account, name = role_arn.split(":")[4], role_arn.rsplit("/", 1)[1]
    return f"arn:aws:sts::{account}:assumed-role/{name}/kit-check"


def _region(arn: str) -> str:
    parts = arn.split(":")
    return parts[3] if len(parts) > 3 and parts[3] else DEFAULT_REGION


def _context(arn: str) -> dict[str, ContextValue]:
    """The keys AWS sets on an SDK call (the principal's keys are derived by Request)."""
    return {"aws:SecureTransport": True, "aws:RequestedRegion": _region(arn),
            "aws:PrincipalIsAWSService": False, "aws:ViaAWSService": False}


def _via(user: str, account: str) -> dict[str, ContextValue]:
    """The keys of a KMS request a service makes for the caller on resource `user` (an S3
    bucket's key is asked about one of its objects)."""
    service = user.split(":")[2]
    target = f"{user}/{OBJECT_PROBE}" if service == "s3" and "/" not in user else user
    return {**_context(user), "aws:ViaAWSService": True,
            "kms:ViaService": f"{service}.{_region(user)}.amazonaws.com",
            "kms:CallerAccount": account, f"kms:EncryptionContext:aws:{service}:arn": target}
