"""iam.permissions_boundary: every named role carries the scenario's permissions boundary.

An organisation that lets teams make their own roles requires each one to carry its
boundary, the most any policy of the role can grant (IAM user guide, "Permissions
boundaries for IAM entities", delegating responsibility to others). A role without it, or
with another policy as its boundary, can be given anything by its team's own policies.
Judged from final.iam (layout in kit/checks/least_privilege.py): the boundary ARN each role
has in the emulator, against the ARN of the `boundary` resource.
"""

from __future__ import annotations

from typing import Any

from kit.checks.result import CheckResult, Params, anomaly, error, judged
from kit.history import History

BOUNDARY = "iam.permissions_boundary"
DEFAULTS: dict[str, Any] = {"boundary": "policy.boundary", "roles": []}


def check_permissions_boundary(history: History, p: Params) -> CheckResult:
    """iam.permissions_boundary: each named role's boundary is the scenario's boundary."""
    iam = history.final.iam if history.final else None
    if not iam or "roles" not in iam or "resources" not in iam:
        return error(BOUNDARY, "no IAM state in the history: the run did not read the roles",
                     p)
    wanted = iam["resources"].get(p["boundary"])
    if not wanted or not p["roles"]:
        return error(BOUNDARY, f"the params name no known boundary ({p['boundary']!r}) or no "
                     "roles: nothing to judge", p)
    # Unbounded: a named role whose boundary is missing or another policy.
    unbounded = []
    for name in p["roles"]:
        role = iam["roles"].get(name)
        found = role.get("boundary_arn") if role else None
        if found != wanted:
            unbounded.append({"role": name, "boundary": found,
                              "problem": "role not found" if role is None else
                              "no permissions boundary" if found is None else
                              "another policy as its boundary"})
    # Pass rule: every named role carries the boundary.
    summary = (f"{len(unbounded)} role(s) without the boundary {wanted}: "
               f"{unbounded[0]['role']} has {unbounded[0]['problem']}" if unbounded
               else f"every role carries the boundary {wanted}")
    return judged(BOUNDARY, not unbounded, summary, {"unbounded": anomaly(unbounded)}, p)
