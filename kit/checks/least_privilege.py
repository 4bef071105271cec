"""iam.required_access and iam.least_privilege: what each role can do, judged statically.

The kit reads each role's policies from the emulator after the run (final.iam) and asks its
own evaluator (kit.iam) about every catalogue action of the services in scope, on every
resource of the scenario plus decoys the solution never mentions. Effective permissions are
judged, never policy text: inline or managed, jsonencode or policy documents, all the same.

final.iam layout:
  account, harness (the principal that must be able to assume the roles),
  resources: {name: arn}  (the scenario's resources and the decoys),
  roles: {name: {arn, trust, policies: {policy name: document}, boundary: document|None}}
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from kit.checks.params import resolve
from kit.checks.result import CheckResult, Params, anomaly, error, judged
from kit.history import History
from kit.iam import Request, can_assume, evaluate, resource_types, service_actions

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


def _session(role_arn: str) -> str:
    account, name = role_arn.split(":")[4], role_arn.rsplit("/", 1)[1]
    return f"arn:aws:sts::{account}:assumed-role/{name}/kit-check"


def _decide(role: Mapping[str, Any], action: str, resource: str) -> Any:
    request = Request(_session(role["arn"]), action, resource, role_arn=role["arn"])
    return evaluate(request, role["policies"], boundary=role.get("boundary"))


def _iam_state(history: History, check_id: str, p: Params) -> Mapping[str, Any] | CheckResult:
    iam = history.final.iam if history.final else None
    if not iam or "roles" not in iam or "resources" not in iam:
        return error(check_id, "no IAM state in the history: the run did not read the roles",
                     p)
    return iam


def check_required_access(history: History, params: Params) -> CheckResult:
    """iam.required_access: each role can do what the scenario requires, and the harness
    can assume it."""
    p = resolve(REQUIRED, params, REQUIRED_DEFAULTS)
    iam = _iam_state(history, REQUIRED, p)
    if isinstance(iam, CheckResult):
        return iam
    if not p["roles"]:
        return error(REQUIRED, "no roles named in the params: nothing to judge", p)
    # Missing pair: a required (action, resource) the role's policies do not allow, or a
    # role the harness cannot assume.
    missing: list[dict[str, Any]] = []
    for name, pairs in p["roles"].items():
        role = iam["roles"].get(name)
        if role is None:
            missing.append({"role": name, "problem": "role not found in the emulator"})
            continue
        trusted = can_assume(role["trust"], iam["harness"], target_role_arn=role["arn"])
        if not trusted.allowed:
            missing.append({"role": name, "action": "sts:AssumeRole", "by": iam["harness"],
                            "problem": trusted.reason})
        for action, resource in pairs:
            arn = iam["resources"].get(resource, resource)
            decision = _decide(role, action, arn)
            if not decision.allowed:
                missing.append({"role": name, "action": action, "resource": resource,
                                "problem": decision.reason or decision.effect})
    # Pass rule: nothing required is missing.
    summary = (f"{len(missing)} required permission(s) missing: {_pair(missing[0])}"
               if missing else "every role has the access the scenario requires")
    return judged(REQUIRED, not missing, summary, {"missing": anomaly(missing)}, p)


def check_least_privilege(history: History, params: Params) -> CheckResult:
    """iam.least_privilege: no role can do more than the scenario allows, and no one but
    the harness can assume it."""
    p = resolve(LEAST, params, LEAST_DEFAULTS)
    iam = _iam_state(history, LEAST, p)
    if isinstance(iam, CheckResult):
        return iam
    if not p["roles"]:
        return error(LEAST, "no roles named in the params: nothing to judge", p)
    over: list[dict[str, Any]] = []
    for name, allowance in p["roles"].items():
        role = iam["roles"].get(name)
        if role is None:
            return error(LEAST, f"role {name!r} not found in the emulator's IAM state", p)
        allowed = {(a.lower(), r) for a, r in allowance}
        # Over-grant: an (action, resource) the role's policies allow that the allowance
        # does not list, over every catalogue action of the services in scope.
        for action, resource_name, arn in _universe(tuple(p["services"]),
                                                    tuple(sorted(iam["resources"].items()))):
            if (action.lower(), resource_name) in allowed:
                continue
            decision = _decide(role, action, arn)
            if decision.allowed:
                over.append({"role": name, "action": action, "resource": resource_name,
                             "granted_by": [str(s) for s in decision.deciding]})
        # Over-trust: someone other than the harness can assume the role.
        for outsider in OUTSIDERS:
            principal = outsider.format(account=iam["account"])
            if can_assume(role["trust"], principal, target_role_arn=role["arn"]).allowed:
                over.append({"role": name, "action": "sts:AssumeRole", "resource": name,
                             "granted_by": [f"trust policy admits {principal}"]})
    # Pass rule: no over-granted pair and no over-trust.
    summary = (f"{len(over)} over-granted permission(s), e.g. {_pair(over[0])}" if over
               else "every role is limited to what the scenario allows")
    return judged(LEAST, not over, summary, {"over_granted": anomaly(over)}, p)


@lru_cache(maxsize=16)
def _universe(services: tuple[str, ...], resources: tuple[tuple[str, str], ...]
              ) -> tuple[tuple[str, str, str], ...]:
    """(action, resource name, arn) to probe: each action on each resource of its service,
    and on `*` when the action has no resource type (the only resource it can name)."""
    out = []
    for service in services:
        for action in service_actions(service):
            if not resource_types(action):
                out.append((action, "*", "*"))
                continue
            for name, arn in resources:
                if arn.split(":")[2] == service:
                    out.append((action, name, arn))
    return tuple(out)


def _pair(item: Mapping[str, Any]) -> str:
    what = f"{item.get('action', '')} on {item.get('resource', '')}".strip()
    detail = item.get("problem") or ", ".join(item.get("granted_by", []))
    return f"role {item['role']}: {what}" + (f" ({detail})" if detail else "")
