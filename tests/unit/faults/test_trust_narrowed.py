"""trust_narrowed: the role trusts only `trusted` for the window, so the harness can no
longer assume it, and its sessions are revoked; heal puts the original trust policy back
and lifts the revocation. A window no call of the solution's met is not injected."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from kit.aws import HARNESS_ARN
from kit.faults.base import FaultNotInjected
from kit.faults.iam.documents import parse
from kit.faults.iam.trust import PROBE_PROCESS, REVOKE_POLICY
from kit.iam import Request, can_assume, evaluate
from tests.unit.faults.iam_moto import Admin, allow, make_fault, role


def _trust(admin: Admin, name: str) -> dict[str, Any]:
    return parse(admin.admin_client("iam").get_role(RoleName=name)["Role"][
        "AssumeRolePolicyDocument"])


def test_the_harness_may_not_assume_the_role_for_the_window(admin: Admin) -> None:
    name, arn = role(admin, allow("sqs:*"))
    original = _trust(admin, name)
    assert can_assume(original, HARNESS_ARN, target_role_arn=arn).allowed
    fault = make_fault(admin, "trust_narrowed", "role.worker", {},
                       roles={"role.worker": arn})
    detail = fault.start()
    assert detail["harness_can_assume"] is None  # no harness in this run to probe with
    assert not can_assume(_trust(admin, name), HARNESS_ARN, target_role_arn=arn).allowed
    deployer = detail["trust_during"]["Statement"][0]["Principal"]["AWS"]
    assert can_assume(_trust(admin, name), deployer, target_role_arn=arn).allowed
    fault.heal()
    assert _trust(admin, name) == original
    assert can_assume(_trust(admin, name), HARNESS_ARN, target_role_arn=arn).allowed


def test_heal_before_start_changes_nothing(admin: Admin) -> None:
    name, arn = role(admin)
    original = _trust(admin, name)
    make_fault(admin, "trust_narrowed", "role.worker", {}, roles={"role.worker": arn}).heal()
    assert _trust(admin, name) == original and admin.invalidations == 0


def _issued(admin: Admin, name: str, arn: str, when: str) -> bool:
    """Whether a session of the role issued at `when` may still call sqs:SendMessage."""
    iam = admin.admin_client("iam")
    policies = [parse(iam.get_role_policy(RoleName=name, PolicyName=p)["PolicyDocument"])
                for p in iam.list_role_policies(RoleName=name)["PolicyNames"]]
    return evaluate(Request(arn, "sqs:SendMessage", "*", {"aws:TokenIssueTime": when}),
                    policies).allowed


def test_the_role_s_sessions_are_revoked_for_the_window_and_the_revocation_lifted(
        admin: Admin) -> None:
    # IAM User Guide, "Revoking IAM role temporary security credentials": a deny of every
    # action to sessions whose aws:TokenIssueTime is before the revocation time.
    name, arn = role(admin, allow("sqs:*"))
    fault = make_fault(admin, "trust_narrowed", "role.worker", {}, roles={"role.worker": arn})
    assert _issued(admin, name, arn, "2026-01-01T00:00:00Z")
    started = time.time()
    detail = fault.start()
    assert detail["revocation"]["policy"] == REVOKE_POLICY
    assert not _issued(admin, name, arn, "2026-01-01T00:00:00Z")  # a running session
    until = detail["revocation"]["document"]["Statement"][0]["Condition"]["DateLessThan"][
        "aws:TokenIssueTime"]
    moment = datetime.strptime(until, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)
    assert moment.timestamp() >= started + 0.01  # the window's end, or later
    in_window = (moment - timedelta(seconds=1)).strftime("%Y-%m-%dT%H:%M:%SZ")
    assert not _issued(admin, name, arn, in_window)  # one issued in the window
    assert _issued(admin, name, arn, until)  # issued once the window is over
    fault.heal()
    assert _issued(admin, name, arn, "2026-01-01T00:00:00Z")
    assert REVOKE_POLICY not in admin.admin_client("iam").list_role_policies(
        RoleName=name)["PolicyNames"]


def _denied_by_revocation(admin: Admin, process: str) -> None:
    admin.recorder.record(process, "authz", action="sqs:ReceiveMessage",
                          operation="ReceiveMessage", resource="arn:aws:sqs:q",
                          decision="ExplicitDeny",
                          deciding=[f"identity policy 'inline:{REVOKE_POLICY}' Statement[0]"],
                          reason="denied")


def test_a_window_no_call_of_the_solution_met_is_a_fault_not_injected(admin: Admin) -> None:
    _, arn = role(admin, allow("sqs:*"))
    fault = make_fault(admin, "trust_narrowed", "role.worker", {}, roles={"role.worker": arn})
    fault.start()
    _denied_by_revocation(admin, PROBE_PROCESS)  # the kit's own calls do not count
    with pytest.raises(FaultNotInjected, match="no call of a session of"):
        fault.window()
    fault.heal()


def test_a_window_a_worker_s_call_met_is_injected(admin: Admin) -> None:
    _, arn = role(admin, allow("sqs:*"))
    fault = make_fault(admin, "trust_narrowed", "role.worker", {}, roles={"role.worker": arn})
    fault.start()
    _denied_by_revocation(admin, "worker-0#0")
    fault.window()
    fault.heal()
