"""boundary_tightened: the role's boundary stops allowing `revoke` for the window (one is
attached when the role had none); heal puts the original boundary (or none) back and
deletes the one it made."""

from __future__ import annotations

from tests.unit.faults.iam_moto import Admin, allow, allowed, make_fault, managed, role


def _boundary(admin: Admin, name: str) -> str | None:
    found = admin.admin_client("iam").get_role(RoleName=name)["Role"]
    return found.get("PermissionsBoundary", {}).get("PermissionsBoundaryArn")


def test_a_boundary_is_attached_for_the_window_then_removed(admin: Admin) -> None:
    name, arn = role(admin, allow("sqs:*"))
    fault = make_fault(admin, "boundary_tightened", "role.worker",
                       {"revoke": ["sqs:DeleteMessage"]}, roles={"role.worker": arn})
    detail = fault.start()
    assert detail["boundary_before"] is None and _boundary(admin, name) == detail[
        "boundary_during"]
    assert not allowed(admin, name, "sqs:DeleteMessage")
    assert allowed(admin, name, "sqs:ReceiveMessage")
    assert fault.heal()["deleted"] == detail["boundary_during"]
    assert _boundary(admin, name) is None
    assert allowed(admin, name, "sqs:DeleteMessage")
    local = admin.admin_client("iam").list_policies(Scope="Local")["Policies"]
    assert detail["boundary_during"] not in {p["Arn"] for p in local}


def test_an_existing_boundary_is_tightened_then_put_back(admin: Admin) -> None:
    boundary = managed(admin, allow(["sqs:SendMessage", "sqs:GetQueueAttributes"]))
    name, arn = role(admin, allow("sqs:*"), boundary=boundary)
    fault = make_fault(admin, "boundary_tightened", "role.worker",
                       {"revoke": ["sqs:SendMessage"]}, roles={"role.worker": arn})
    assert fault.start()["boundary_before"] == boundary
    assert not allowed(admin, name, "sqs:SendMessage")
    assert allowed(admin, name, "sqs:GetQueueAttributes")  # the rest of the boundary holds
    assert not allowed(admin, name, "sqs:PurgeQueue")  # and so does what it never allowed
    assert fault.heal()["boundary_restored"] == boundary
    assert _boundary(admin, name) == boundary
    assert allowed(admin, name, "sqs:SendMessage")
