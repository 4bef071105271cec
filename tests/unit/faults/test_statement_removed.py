"""statement_removed: the role's inline statements granting `actions` are deleted for the
window (a policy left with none is deleted); heal puts the documents back as they were."""

from __future__ import annotations

from kit.faults.iam.documents import parse
from tests.unit.faults.iam_moto import Admin, allow, allowed, make_fault, role

QUEUE = "arn:aws:sqs:us-east-1:123456789012:jobs"


def _inline(admin: Admin, name: str) -> dict[str, object]:
    iam = admin.admin_client("iam")
    return {p: parse(iam.get_role_policy(RoleName=name, PolicyName=p)["PolicyDocument"])
            for p in iam.list_role_policies(RoleName=name)["PolicyNames"]}


def test_the_granting_statement_goes_for_the_window_and_comes_back(admin: Admin) -> None:
    send = {"Sid": "Send", **allow("sqs:SendMessage", QUEUE)}
    read = {"Sid": "Read", **allow("sqs:GetQueueAttributes", QUEUE)}
    name, arn = role(admin, send, read)
    original = _inline(admin, name)
    fault = make_fault(admin, "statement_removed", "role.worker",
                       {"actions": ["sqs:SendMessage"]}, roles={"role.worker": arn})
    assert fault.start()["removed"] == {"main": [send]}
    assert not allowed(admin, name, "sqs:SendMessage", QUEUE)
    assert allowed(admin, name, "sqs:GetQueueAttributes", QUEUE)
    assert fault.heal()["restored"] == ["main"]
    assert _inline(admin, name) == original
    assert allowed(admin, name, "sqs:SendMessage", QUEUE)


def test_a_policy_left_empty_is_deleted_for_the_window(admin: Admin) -> None:
    name, arn = role(admin, allow("sqs:SendMessage", QUEUE))
    original = _inline(admin, name)
    fault = make_fault(admin, "statement_removed", "role.worker",
                       {"actions": ["sqs:SendMessage"]}, roles={"role.worker": arn})
    fault.start()
    assert _inline(admin, name) == {}
    fault.heal()
    assert _inline(admin, name) == original


def test_a_role_whose_inline_policies_grant_none_is_left_alone(admin: Admin) -> None:
    name, arn = role(admin, allow("s3:GetObject"))
    fault = make_fault(admin, "statement_removed", "role.worker",
                       {"actions": ["sqs:SendMessage"]}, roles={"role.worker": arn})
    assert fault.start()["effect"].startswith("nothing removed")
    assert fault.heal()["restored"] == []
    assert allowed(admin, name, "s3:GetObject")
