"""iam.resource_exposure: a resource's own policy lets in no one the scenario does not name.

Judged from final.iam (layout in kit/checks/least_privilege.py) with the kit's evaluator,
on the resources the params list. Each outsider below asks for every catalogue action of
the resource's service (S3: bucket actions on the bucket, object actions on an object):
- a role of another account whose own policies allow everything: a cross-account grant,
  or `Principal: "*"`, lets it in (cross-account, both sides must allow);
- a role of the resource's account with no policy of its own: only a statement that names
  it, or `"*"`, lets it in (one that names the account delegates to identity policies,
  IAM user guide, "Policy evaluation logic");
- each AWS service principal the policy names, acting for another account
  (aws:SourceAccount and aws:SourceArn of that account): a statement for a service with
  no source condition lets any customer's resource of that service in, the confused
  deputy (IAM user guide, "The confused deputy problem": use aws:SourceArn or
  aws:SourceAccount);
- with `own_sources` (a scenario whose contract names the one resource a service may act
  for, such as "the jobs rule and no other rule of any account"), each such service also
  acting for another resource of the resource's own account: only aws:SourceArn keeps it
  out, aws:SourceAccount does not.
A Deny in the policy keeps an outsider out, as in AWS.
"""

from __future__ import annotations

from typing import Any

from kit.checks.result import CheckResult, Params, anomaly, error, judged
from kit.history import History
from kit.iam import Policy, Request, parse_policy
from kit.iam.effective import OBJECTS, State, caller_keys, label, load, universe
from kit.iam.evaluate import decide

EXPOSURE = "iam.resource_exposure"
DEFAULTS: dict[str, Any] = {"resources": [], "own_sources": False}
FOREIGN = "999999999999"
ALLOW_ALL = parse_policy({"Version": "2012-10-17", "Statement": [
    {"Effect": "Allow", "Action": "*", "Resource": "*"}]}, name="outsider's own policy")


def _outsiders(account: str, policy: Policy, own_sources: bool
               ) -> list[tuple[str, list[Policy], dict[str, Any]]]:
    """(principal, its identity policies, request keys) of each outsider for `policy`."""
    found = [(f"arn:aws:iam::{FOREIGN}:role/kit-outsider", [ALLOW_ALL], {}),
             (f"arn:aws:iam::{account}:role/kit-unrelated-role", [], {})]
    named = sorted({s for st in policy.statements if st.principal for s in st.principal.service})
    sources = [(FOREIGN, "kit-foreign"), *([(account, "kit-other-source")] if own_sources
                                            else [])]
    for service in named:
        prefix = service.split(".", 1)[0]
        for source_account, source in sources:
            found.append((service, [], {
                "aws:SourceAccount": source_account, "aws:PrincipalIsAWSService": True,
                "aws:SourceArn": f"arn:aws:{prefix}:us-east-1:{source_account}:{source}"}))
    return found


def _exposed(state: State, name: str, own_sources: bool) -> list[dict[str, Any]]:
    """The (outsider, action) pairs the policy of resource `name` lets in."""
    arn = state.arn(name)
    policy = state.policies.get(arn)
    if policy is None:
        return []
    targets = [(name, arn), *((n, a) for n, a in state.resources.items()
                              if n == f"{name}{OBJECTS}")]
    found = []
    for principal, identity, keys in _outsiders(state.account, policy, own_sources):
        role = principal if ":role/" in principal else None
        session = (f"{principal.replace(':iam::', ':sts::').replace(':role/', ':assumed-role/')}"
                   "/kit-probe") if role else principal
        for action, target, target_arn in universe((arn.split(":")[2],), tuple(targets)):
            if target_arn == "*":  # an action on no resource: no resource policy applies
                continue
            context = {**caller_keys(state.window), **keys}
            # An S3 ARN names no account: the resource is the scenario account's.
            request = Request(session, action, target_arn, context, role,
                              resource_account=state.account)
            decision = decide(request, identity, boundary=None, sessions=[],
                              resource=state.policies.get(target_arn), scp_levels=[],
                              principal_account=None, trust=False)
            if decision.allowed:
                found.append({"resource": target, "principal": principal, "action": action,
                              "granted_by": [label(r) for r in decision.deciding
                                             if r.kind == "resource"]})
    return found


def check_resource_exposure(history: History, p: Params) -> CheckResult:
    """iam.resource_exposure: no outsider gets in through a resource's own policy."""
    iam = history.final.iam if history.final else None
    if not iam or "resources" not in iam:
        return error(EXPOSURE, "no IAM state in the history: the run did not read the "
                     "resource policies", p)
    if not p["resources"]:
        return error(EXPOSURE, "no resources named in the params: nothing to judge", p)
    state = load(iam)
    missing = [n for n in p["resources"] if n not in state.resources]
    if missing:
        return error(EXPOSURE, f"resource(s) {', '.join(missing)} not in the IAM state", p)
    # Exposed: an (outsider, action, resource) the resource's own policy allows.
    exposed = [item for name in p["resources"]
               for item in _exposed(state, name, p["own_sources"])]
    # Pass rule: no outsider is let in.
    summary = (f"{len(exposed)} outsider permission(s), e.g. {exposed[0]['principal']} may "
               f"{exposed[0]['action']} on {exposed[0]['resource']} "
               f"({', '.join(exposed[0]['granted_by'])})" if exposed
               else f"no outsider gets into {', '.join(p['resources'])}")
    return judged(EXPOSURE, not exposed, summary, {"exposed": anomaly(exposed)}, p)
