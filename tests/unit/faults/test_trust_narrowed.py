"""trust_narrowed: the role trusts only `trusted` for the window, so the harness can no
longer assume it; heal puts the original trust policy back."""

from __future__ import annotations

from typing import Any

from kit.aws import HARNESS_ARN
from kit.faults.iam.documents import parse
from kit.iam import can_assume
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
