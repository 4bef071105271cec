"""Used vs granted: the permissions each role's processes used, and those granted but unused.

The gateway records one `authz` op per IAM check of every call (kit/gateway/guard.py): the
calling process, the action, the resource ARN and the decision. A process maps to the role
it ran as by the longest matching prefix of its name (`worker-0#1` -> worker). From the
allowed checks, the least-privilege policy the run actually needed is derived: one Allow
statement per resource, actions and resources sorted. Against the role's effective
permissions over the least-privilege universe (kit.iam.effective.grants), what was granted
and never used is listed: the candidates to remove.

A run exercises one workload under one fault: "never used" is evidence, not proof, that a
permission is not needed (an explicit DLQ move may happen only under poison).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from kit.history import History
from kit.iam.effective import Grant, grants, load

# Process-name prefix -> role, for the kit's workload (kit/run/queue.py names them).
DEFAULT_ROLES: Mapping[str, str] = {"worker-": "worker", "producer": "producer"}

Pair = tuple[str, str]  # (action, resource ARN)


@dataclass
class Calls:
    """What one role's processes asked for: allowed pairs, denied pairs and who asked."""

    processes: set[str] = field(default_factory=set)
    used: set[Pair] = field(default_factory=set)
    denied: set[Pair] = field(default_factory=set)


def role_of(process: str, roles: Mapping[str, str]) -> str | None:
    """The role a process ran as: the one of the longest prefix it starts with, else None."""
    matches = [prefix for prefix in roles if process.startswith(prefix)]
    return roles[max(matches, key=len)] if matches else None


def calls(history: History, roles: Mapping[str, str] = DEFAULT_ROLES) -> dict[str, Calls]:
    """The gateway's decisions in `history`, grouped by role (every role of `roles` listed)."""
    out = {role: Calls() for role in roles.values()}
    for op in history.of_kind("authz"):
        role = role_of(op.process, roles)
        action, resource = op.value.action, op.value.resource
        if role is None or not action or not resource:  # unmapped calls name no resource
            continue
        found = out[role]
        found.processes.add(op.process)
        (found.used if op.value.decision == "Allow" else found.denied).add(
            (action, resource))
    return out


def objects_of(arn: str) -> str:
    """An S3 object's ARN as its bucket's objects (`arn:aws:s3:::b/*`); other ARNs as they
    are. Which objects a run wrote is its data, not a resource to grant one by one."""
    if arn.startswith("arn:aws:s3:::") and "/" in arn:
        return f"{arn.split('/', 1)[0]}/*"
    return arn


def needed_policy(pairs: Iterable[Pair]) -> dict[str, Any] | None:
    """The least-privilege policy allowing exactly `pairs` (a bucket's objects as one
    resource, `objects_of`): one statement per resource; None when there are none (a
    policy needs a statement)."""
    by_resource: dict[str, set[str]] = {}
    for action, resource in pairs:
        by_resource.setdefault(objects_of(resource), set()).add(action)
    if not by_resource:
        return None
    return {"Version": "2012-10-17", "Statement": [
        {"Effect": "Allow", "Action": sorted(actions), "Resource": resource}
        for resource, actions in sorted(by_resource.items())]}


def unused(granted: Iterable[Grant], used: Iterable[Pair]) -> list[Grant]:
    """The grants no used pair exercised (actions compared without regard to case; any
    object of a bucket exercises a grant on its objects)."""
    seen = {(action.lower(), objects_of(resource)) for action, resource in used}
    return [g for g in granted if (g.action.lower(), objects_of(g.arn)) not in seen]


def used_vs_granted(history: History, services: Iterable[str],
                    roles: Mapping[str, str] = DEFAULT_ROLES) -> dict[str, dict[str, Any]]:
    """Per role, JSON-safe: processes, used pairs, denied ones (refused, never allowed), the
    needed policy, and the permissions granted (over the universe of `services`) but never
    used; `granted` and `granted_unused` are None when the history holds no IAM state for
    the role."""
    iam = history.final.iam if history.final else None
    state = load(iam) if iam and "roles" in iam and "resources" in iam else None
    report = {}
    for name, found in sorted(calls(history, roles).items()):
        role = state.roles.get(name) if state else None
        granted = grants(state, role, tuple(services)) if state and role else None
        report[name] = {
            "processes": sorted(found.processes),
            "used": [list(pair) for pair in sorted(found.used)],
            "denied": [list(pair) for pair in sorted(found.denied - found.used)],
            "needed_policy": needed_policy(found.used),
            "granted": None if granted is None else len(granted),
            "granted_unused": None if granted is None else [
                {"action": g.action, "resource": g.resource, "granted_by": list(g.granted_by)}
                for g in unused(granted, found.used)],
        }
    return report


def summary(entry: Mapping[str, Any], shown: int = 5) -> str:
    """One line on a role's entry of `used_vs_granted`: counts and the first unused grants."""
    text = f"used {len(entry['used'])}"
    unused_grants = entry["granted_unused"]
    if unused_grants is None:
        return text + "; granted unknown (no IAM state)"
    text += f" of {entry['granted']} granted; never used: {len(unused_grants)}"
    if unused_grants:
        names = [f"{g['action']} on {g['resource']}" for g in unused_grants[:shown]]
        more = len(unused_grants) - shown
        text += " (" + ", ".join(names) + (f" and {more} more" if more > 0 else "") + ")"
    return text
