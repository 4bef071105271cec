"""Used vs granted: the permissions each role's processes used, and those granted but unused.

The gateway records one `authz` op per IAM check of every call (kit/gateway/guard.py): the
calling process, the action, the resource ARN and the decision. A process maps to the role
it ran as by the longest matching prefix of its name (`worker-0#1` -> worker). From the
allowed checks, the least-privilege policy the run actually needed is derived: one Allow
statement per resource, actions and resources sorted. Against the role's effective
permissions over the least-privilege universe (kit.iam.effective.grants), what was granted
and never used is listed: the candidates to remove.

Used and granted are counted in one unit, granted (action, resource) pairs: a grant is used
when a call exercised it (any object of a bucket exercises a grant on its objects), so
"used 7 of 11 granted" means 7 of the role's 11 granted pairs, never one pair per object
written against one per statement.

A grant whose removal changes the documented answers of an API the role may call is never
advised away: it is `granted_exempt`, with the reason (`ANSWER_CHANGING`), unless a call
exercised it. s3:ListBucket is the case: without it S3 answers a read of a missing key
403 AccessDenied instead of 404 NoSuchKey, so a worker that polls for a result not yet
written can no longer tell "not yet" from "denied" (S3 API reference, GetObject,
Permissions). The gateway records the s3:ListBucket check whenever it decides such a miss
(kit/gateway/guard.py `hide_missing`), so a run that met one shows it used.

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
# Action (lower case) -> (the object action whose answers it changes, on the same bucket's
# objects; why it must not be advised away while that action is granted).
ANSWER_CHANGING: Mapping[str, tuple[str, str]] = {
    "s3:listbucket": ("s3:getobject", (
        "without it GetObject and HeadObject of a missing key answer 403 AccessDenied, not "
        "404 NoSuchKey (S3 API reference, GetObject, Permissions): removing it changes what "
        "a reader of keys not yet written sees")),
}


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


def _unit(action: str, resource: str) -> Pair:
    """A pair in the unit grants are counted in: the action in lower case, an object as its
    bucket's objects."""
    return action.lower(), objects_of(resource)


def unused(granted: Iterable[Grant], used: Iterable[Pair]) -> list[Grant]:
    """The grants no used pair exercised (actions compared without regard to case; any
    object of a bucket exercises a grant on its objects)."""
    seen = {_unit(action, resource) for action, resource in used}
    return [g for g in granted if _unit(g.action, g.arn) not in seen]


def exemption(grant: Grant, granted: Iterable[Grant]) -> str | None:
    """Why an unused grant must not be advised away (`ANSWER_CHANGING`), or None: it
    changes the answers of an action the role is granted on the same bucket's objects."""
    found = ANSWER_CHANGING.get(grant.action.lower())
    if found is None or "/" in grant.arn:  # a bucket's own grant, never one on its objects
        return None
    action, reason = found
    objects = f"{grant.arn}/*"
    if any(_unit(g.action, g.arn) == (action, objects) for g in granted):
        return reason
    return None


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
            **_granted(granted, found.used),
        }
    return report


def _granted(granted: list[Grant] | None, used: set[Pair]) -> dict[str, Any]:
    """The granted pairs' counts and lists: all, used, never used, exempt from advice."""
    if granted is None:
        return {"granted": None, "granted_used": None, "granted_unused": None,
                "granted_exempt": None}
    never = unused(granted, used)
    exempt = [(g, why) for g in never if (why := exemption(g, granted)) is not None]
    kept = {id(g) for g, _ in exempt}
    return {
        "granted": len(granted),
        "granted_used": len(granted) - len(never),
        "granted_unused": [_grant(g) for g in never if id(g) not in kept],
        "granted_exempt": [{**_grant(g), "reason": why} for g, why in exempt],
    }


def _grant(grant: Grant) -> dict[str, Any]:
    return {"action": grant.action, "resource": grant.resource,
            "granted_by": list(grant.granted_by)}


def summary(entry: Mapping[str, Any], shown: int = 5) -> str:
    """One line on a role's entry of `used_vs_granted`: granted (action, resource) pairs,
    how many were used, the first unused ones and those kept though unused."""
    unused_grants = entry["granted_unused"]
    if unused_grants is None:
        pairs = {_unit(action, resource) for action, resource in entry["used"]}
        return (f"used {len(pairs)} (action, resource) pairs (a bucket's objects as one); "
                "granted unknown (no IAM state)")
    exempt = entry.get("granted_exempt") or []
    used = entry.get("granted_used")
    if used is None:  # a document of an older kit: no count in the grants' unit
        used = entry["granted"] - len(unused_grants) - len(exempt)
    text = (f"used {used} of {entry['granted']} granted (action, resource) pairs; "
            f"never used: {len(unused_grants)}")
    if unused_grants:
        text += _listed([f"{g['action']} on {g['resource']}" for g in unused_grants], shown)
    if exempt:
        text += f"; kept though unused: {len(exempt)}" + _listed(
            [f"{g['action']} on {g['resource']}: {g['reason']}" for g in exempt], shown)
    return text


def _listed(names: list[str], shown: int) -> str:
    more = len(names) - shown
    return " (" + ", ".join(names[:shown]) + (f" and {more} more" if more > 0 else "") + ")"
