"""resource_deny: a Deny naming one role (or everyone) is appended to a queue, bucket or
key policy for the window; heal puts the policy back as it was (or none)."""

from __future__ import annotations

import json
from typing import Any

from kit.faults.iam.documents import parse
from tests.unit.faults.iam_moto import Admin, allow, allowed, doc, make_fault, role


def _queue_policy(admin: Admin, url: str) -> dict[str, Any] | None:
    text = admin.admin_client("sqs").get_queue_attributes(
        QueueUrl=url, AttributeNames=["Policy"]).get("Attributes", {}).get("Policy")
    return parse(text) if text else None


def test_a_queue_deny_names_one_role_and_is_removed_at_heal(admin: Admin) -> None:
    url = admin.admin_client("sqs").create_queue(QueueName="jobs")["QueueUrl"]
    arn = "arn:aws:sqs:us-east-1:123456789012:jobs"
    worker, worker_arn = role(admin, allow("sqs:*", arn))
    other, _ = role(admin, allow("sqs:*", arn))
    fault = make_fault(admin, "resource_deny", "queue.jobs",
                       {"actions": ["sqs:SendMessage"], "principal": "role.worker"},
                       roles={"role.worker": worker_arn},
                       values={"queue.jobs.url": url, "queue.jobs.arn": arn})
    assert fault.start()["policy_before"] == "none"
    during = _queue_policy(admin, url)
    assert during is not None
    assert not allowed(admin, worker, "sqs:SendMessage", arn, resource_policy=during)
    assert allowed(admin, worker, "sqs:ReceiveMessage", arn, resource_policy=during)
    assert allowed(admin, other, "sqs:SendMessage", arn, resource_policy=during)
    assert fault.heal()["restored"] == "no policy"
    assert _queue_policy(admin, url) is None


def test_a_bucket_policy_keeps_its_statements_and_gets_them_back(admin: Admin) -> None:
    s3 = admin.admin_client("s3")
    s3.create_bucket(Bucket="results")
    arn = "arn:aws:s3:::results"
    original = doc({"Sid": "DenyDeletes", "Effect": "Deny", "Principal": "*",
                    "Action": "s3:DeleteObject", "Resource": f"{arn}/*"})
    s3.put_bucket_policy(Bucket="results", Policy=original)
    writer, _ = role(admin, allow("s3:*", [arn, f"{arn}/*"]))
    fault = make_fault(admin, "resource_deny", "bucket.results", {"actions": ["s3:PutObject"]},
                       values={"bucket.results.name": "results", "bucket.results.arn": arn})
    assert fault.start()["policy_before"] == "kept, deny appended"
    during = parse(s3.get_bucket_policy(Bucket="results")["Policy"])
    assert [s["Sid"] for s in during["Statement"]] == ["DenyDeletes", "KitDeny"]
    assert not allowed(admin, writer, "s3:PutObject", f"{arn}/k", resource_policy=during)
    assert allowed(admin, writer, "s3:GetObject", f"{arn}/k", resource_policy=during)
    fault.heal()
    assert json.loads(s3.get_bucket_policy(Bucket="results")["Policy"]) == json.loads(original)


def test_a_key_policy_deny_is_appended_and_taken_back(admin: Admin) -> None:
    kms = admin.admin_client("kms")
    key = kms.create_key()["KeyMetadata"]["Arn"]
    before = parse(kms.get_key_policy(KeyId=key, PolicyName="default")["Policy"])
    fault = make_fault(admin, "resource_deny", "key.shared", {"actions": ["kms:Decrypt"]},
                       values={"key.shared.arn": key})
    fault.start()
    during = parse(kms.get_key_policy(KeyId=key, PolicyName="default")["Policy"])
    assert during["Statement"][-1] == {"Sid": "KitDeny", "Effect": "Deny", "Principal": "*",
                                       "Action": ["kms:Decrypt"], "Resource": "*"}
    fault.heal()
    assert parse(kms.get_key_policy(KeyId=key, PolicyName="default")["Policy"]) == before


def test_heal_before_start_changes_nothing(admin: Admin) -> None:
    url = admin.admin_client("sqs").create_queue(QueueName="idle")["QueueUrl"]
    arn = "arn:aws:sqs:us-east-1:123456789012:idle"
    fault = make_fault(admin, "resource_deny", "queue.idle", {"actions": ["sqs:*"]},
                       values={"queue.idle.url": url, "queue.idle.arn": arn})
    fault.heal()
    assert _queue_policy(admin, url) is None and admin.invalidations == 0
