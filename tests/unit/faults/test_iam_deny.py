"""iam_deny: an explicit deny of `actions` is attached to the role for the window (every
other grant of the role still counts), and heal deletes it."""

from __future__ import annotations

from tests.unit.faults.iam_moto import Admin, allow, allowed, make_fault, role


def test_the_role_is_denied_the_actions_for_the_window_only(admin: Admin) -> None:
    name, arn = role(admin, allow(["sqs:*", "s3:GetObject"]))
    fault = make_fault(admin, "iam_deny", "role.worker", {"actions": ["sqs:DeleteMessage"]},
                       roles={"role.worker": arn})
    assert allowed(admin, name, "sqs:DeleteMessage")
    detail = fault.start()
    assert detail["target"] == arn and detail["policy"] == "kit-revoke"
    assert not allowed(admin, name, "sqs:DeleteMessage")
    assert allowed(admin, name, "sqs:ReceiveMessage") and allowed(admin, name, "s3:GetObject")
    assert admin.invalidations == 1  # the gateway decides on the deny at once
    assert fault.heal()["restored"] == "inline policy kit-revoke deleted"
    assert allowed(admin, name, "sqs:DeleteMessage")
    assert admin.admin_client("iam").list_role_policies(RoleName=name)["PolicyNames"] == [
        "main"]


def test_heal_is_idempotent(admin: Admin) -> None:
    name, arn = role(admin, allow("sqs:*"))
    fault = make_fault(admin, "iam_deny", "role.worker", {}, roles={"role.worker": arn})
    fault.start()
    fault.heal()
    fault.heal()  # the deny is already gone: healed, not an error
    assert allowed(admin, name, "sqs:SendMessage")
