"""policy_rollback: a managed policy defaults to a version without `without` for the
window; heal makes the original version the default again and deletes the published one."""

from __future__ import annotations

import pytest

from kit.faults.base import FaultBroken
from tests.unit.faults.iam_moto import (
    Admin,
    allow,
    allowed,
    doc,
    make_fault,
    managed,
    role,
)


def _versions(admin: Admin, arn: str) -> list[tuple[str, bool]]:
    found = admin.admin_client("iam").list_policy_versions(PolicyArn=arn)["Versions"]
    return sorted((v["VersionId"], v["IsDefaultVersion"]) for v in found)


def test_a_role_s_managed_policy_loses_the_grant_for_the_window(admin: Admin) -> None:
    name, arn = role(admin)
    policy = managed(admin, allow(["sqs:SendMessage", "sqs:GetQueueAttributes"]))
    admin.admin_client("iam").attach_role_policy(RoleName=name, PolicyArn=policy)
    fault = make_fault(admin, "policy_rollback", "role.worker",
                       {"without": ["sqs:SendMessage"]}, roles={"role.worker": arn})
    detail = fault.start()
    assert detail["rolled_back"] == [{"policy": policy, "default_before": "v1",
                                      "default_during": "v2"}]
    assert not allowed(admin, name, "sqs:SendMessage")
    assert allowed(admin, name, "sqs:GetQueueAttributes")
    assert fault.heal()["restored"] == [{"policy": policy, "default": "v1",
                                         "deleted_version": "v2"}]
    assert allowed(admin, name, "sqs:SendMessage")
    assert _versions(admin, policy) == [("v1", True)]


def test_a_boundary_policy_target_caps_the_role_it_bounds(admin: Admin) -> None:
    boundary = managed(admin, allow(["sqs:*", "s3:*"]))
    name, _ = role(admin, allow(["sqs:*", "s3:*"]), boundary=boundary)
    fault = make_fault(admin, "policy_rollback", "policy.boundary",
                       {"without": ["s3:PutObject"]}, values={"policy.boundary.arn": boundary})
    fault.start()
    assert not allowed(admin, name, "s3:PutObject")
    assert allowed(admin, name, "s3:GetObject")
    fault.heal()
    assert allowed(admin, name, "s3:PutObject")


def test_an_inline_only_role_is_left_alone_and_said_so(admin: Admin) -> None:
    name, arn = role(admin, allow("sqs:SendMessage"))
    fault = make_fault(admin, "policy_rollback", "role.worker",
                       {"without": ["sqs:SendMessage"]}, roles={"role.worker": arn})
    assert fault.start()["effect"].startswith("nothing to roll back")
    assert allowed(admin, name, "sqs:SendMessage")
    assert fault.heal()["restored"] == []


def test_a_policy_with_no_room_for_another_version_is_the_kits_error(admin: Admin) -> None:
    policy = managed(admin, allow("sqs:*"))
    iam = admin.admin_client("iam")
    for _ in range(4):  # IAM keeps five versions
        iam.create_policy_version(PolicyArn=policy, PolicyDocument=doc(allow("sqs:*")))
    fault = make_fault(admin, "policy_rollback", "policy.boundary",
                       {"without": ["sqs:SendMessage"]}, values={"policy.boundary.arn": policy})
    with pytest.raises(FaultBroken, match="no room"):
        fault.start()
