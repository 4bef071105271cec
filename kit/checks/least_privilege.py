"""iam.required_access and iam.least_privilege: what each role can do, judged statically.

The kit reads each role's policies and the resource policies of the scenario's resources from
the emulator after the run (final.iam) and asks its own evaluator (kit.iam.effective) about
every catalogue action of the services in scope, on every resource of the scenario plus
decoys the solution never mentions. Effective permissions are judged, never policy text:
a condition is judged by its effect over every request the gateway could see (a grant
under a condition every request meets is a grant; kit.iam.effective);
inline or managed, jsonencode or policy documents, identity or resource policy, all the same;
a boundary caps, an explicit deny anywhere wins.

final.iam layout:
  account, harness (the principal that must be able to assume the roles),
  assumed_by (optional, team mode: {role name: service principal}: then exactly these roles
    are assumed, each by its service, judged with the context that service sends,
    kit/iam/service.py; the harness assumes none),
  since, until (optional: epoch seconds when the run started and when final.iam was read;
    time conditions are judged over that window, kit.iam.effective),
  resources: {name: arn}  (the scenario's resources, the roles, the decoys, and
    `<resource>.kms_key` for each resource encrypted with a customer managed key),
  resource_policies: {resource name: policy document}  (optional: a queue, bucket or
    secret policy, a KMS key policy; a resource without one is absent),
  roles: {name: {arn, trust, policies: {policy name: document}, boundary: document|None,
                 boundary_arn: str|None, tags: {key: value} (optional: absent, any tags),
                 id: the RoleId (optional)}}

Params name resources by their final.iam name, `*`, or a literal ARN; a bucket's objects
are `<bucket name>/*` (kit.iam.effective). A pair on
`<resource>.kms_key` is an allowance (or requirement) that holds only when the resource uses
a customer managed key: e.g. [kms:Decrypt, queue.kms_key] lets a consumer of a queue
encrypted with its own key decrypt with that key, and nothing else.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kit.checks.result import CheckResult, Params, anomaly, error, judged
from kit.history import History
from kit.iam import can_assume
from kit.iam.effective import KEY_SUFFIX, Role, State, caller_keys, grants, label, load
from kit.iam.service import service_admits

REQUIRED = "iam.required_access"
LEAST = "iam.least_privilege"
REQUIRED_DEFAULTS: dict[str, Any] = {"roles": {}}
LEAST_DEFAULTS: dict[str, Any] = {
    "services": ["sqs", "sts", "iam", "secretsmanager", "rds", "kms"], "roles": {}}
# Principals that must never be able to assume a role meant for the harness alone.
OUTSIDERS = ("arn:aws:iam::{account}:user/kit-someone-else",
             "arn:aws:iam::{account}:role/kit-other-role",
             "arn:aws:iam::999999999999:root",
             "arn:aws:iam::999999999999:role/attacker")


def _iam_state(history: History, check_id: str, p: Params) -> State | CheckResult:
    iam = history.final.iam if history.final else None
    if not iam or "roles" not in iam or "resources" not in iam:
        return error(check_id, "no IAM state in the history: the run did not read the roles",
                     p)
    if not p["roles"]:
        return error(check_id, "no roles named in the params: nothing to judge", p)
    return load(iam)


def check_required_access(history: History, p: Params) -> CheckResult:
    """iam.required_access: each role can do what the scenario requires, and the harness
    can assume it."""
    state = _iam_state(history, REQUIRED, p)
    if isinstance(state, CheckResult):
        return state
    # Missing pair: a required (action, resource) that AWS would not allow the role (its
    # policies, boundary and the resource's policy together), or a role the harness cannot
    # assume. A pair on a key the resource does not use is not required.
    # In team mode a role is assumed by its service, and the trust policy is the evidence.
    missing: list[dict[str, Any]] = []
    roles = {**{name: [] for name in state.assumed_by or {}}, **p["roles"]}
    for name, pairs in roles.items():
        role = state.roles.get(name)
        if role is None:
            missing.append({"role": name, "problem": "role not found in the emulator"})
            continue
        missing.extend(_untrusted(state, role))
        for action, resource in pairs:
            if resource.endswith(KEY_SUFFIX) and resource not in state.resources:
                continue
            decision = state.decide(role, action, resource)
            if not decision.allowed:
                missing.append({"role": name, "action": action, "resource": resource,
                                "problem": decision.reason or decision.effect,
                                "denied_by": [label(ref) for ref in decision.deciding]})
    # Pass rule: nothing required is missing.
    summary = (f"{len(missing)} required permission(s) missing: {_pair(missing[0])}"
               if missing else "every role has the access the scenario requires")
    return judged(REQUIRED, not missing, summary, {"missing": anomaly(missing)}, p)


def _untrusted(state: State, role: Role) -> list[dict[str, Any]]:
    """The role's missing sts:AssumeRole, if its assumer may not assume it."""
    if state.assumed_by is None:
        trusted = can_assume(role.trust, state.harness, target_role_arn=role.arn,
                             context=caller_keys(state.window))
        return [] if trusted.allowed else [{"role": role.name, "action": "sts:AssumeRole",
                                            "by": state.harness, "problem": trusted.reason}]
    service = state.assumed_by.get(role.name)
    if service is None:
        return []  # team mode: a role no service of the scenario's assumes
    decision = service_admits(role.trust, service, role.arn, state.account, state.window)
    if decision.allowed:
        return []
    return [{"role": role.name, "action": "sts:AssumeRole", "resource": role.name,
             "by": service, "trust": role.trust,
             "problem": f"its trust policy does not admit {service}: {decision.reason}"}]


def check_least_privilege(history: History, p: Params) -> CheckResult:
    """iam.least_privilege: no role can do more than the scenario allows, and no one but
    the harness can assume it."""
    state = _iam_state(history, LEAST, p)
    if isinstance(state, CheckResult):
        return state
    over: list[dict[str, Any]] = []
    for name, allowance in p["roles"].items():
        role = state.roles.get(name)
        if role is None:
            return error(LEAST, f"role {name!r} not found in the emulator's IAM state", p)
        allowed = {(a.lower(), state.arn(r)) for a, r in allowance}
        # Over-grant: an (action, resource) AWS would allow the role (by any of its policies
        # or the resource's own) that the allowance does not list, over every catalogue
        # action of the services in scope.
        for grant in grants(state, role, tuple(p["services"])):
            if (grant.action.lower(), grant.arn) not in allowed:
                over.append({"role": name, "action": grant.action, "resource": grant.resource,
                             "granted_by": list(grant.granted_by)})
        # Over-trust: someone other than the harness can assume the role.
        for outsider in OUTSIDERS:
            principal = outsider.format(account=state.account)
            if can_assume(role.trust, principal, target_role_arn=role.arn,
                          context=caller_keys(state.window)).allowed:
                over.append({"role": name, "action": "sts:AssumeRole", "resource": name,
                             "granted_by": [f"trust policy admits {principal}"]})
    # Pass rule: no over-granted pair and no over-trust.
    summary = (f"{len(over)} over-granted permission(s), e.g. {_pair(over[0])}" if over
               else "every role is limited to what the scenario allows")
    return judged(LEAST, not over, summary, {"over_granted": anomaly(over)}, p)


def _pair(item: Mapping[str, Any]) -> str:
    what = f"{item.get('action', '')} on {item.get('resource', '')}".strip()
    detail = item.get("problem") or ", ".join(item.get("granted_by", []))
    return f"role {item['role']}: {what}" + (f" ({detail})" if detail else "")
