"""The policy edits of the IAM faults, judged by the kit's evaluator: what the edited
document allows, not how it reads."""

from __future__ import annotations

from typing import Any

from kit.faults.iam.documents import NOTHING, grants_any, without_grants, without_statements
from kit.iam import Request, evaluate

ROLE = "arn:aws:iam::123456789012:role/worker"
QUEUE = "arn:aws:sqs:us-east-1:123456789012:jobs"


def _doc(*statements: dict[str, Any]) -> dict[str, Any]:
    return {"Version": "2012-10-17", "Statement": list(statements)}


def _allows(action: str, *documents: dict[str, Any], resource: str = QUEUE) -> bool:
    return evaluate(Request(ROLE, action, resource), documents).allowed


def test_a_wildcard_loses_only_the_revoked_action() -> None:
    before = _doc({"Effect": "Allow", "Action": ["sqs:*", "s3:PutObject"], "Resource": "*"})
    after = without_grants(before, ["sqs:DeleteMessage"])
    assert not _allows("sqs:DeleteMessage", after)
    assert _allows("sqs:ReceiveMessage", after)
    assert _allows("s3:PutObject", after, resource="*")


def test_action_star_becomes_not_action_and_not_action_grows() -> None:
    everything = without_grants(_doc({"Effect": "Allow", "Action": "*", "Resource": "*"}),
                                ["kms:Decrypt"])
    assert everything["Statement"] == [{"Effect": "Allow", "Resource": "*",
                                        "NotAction": ["kms:Decrypt"]}]
    assert not _allows("kms:Decrypt", everything, resource="*")
    assert _allows("sqs:SendMessage", everything)
    but_iam = without_grants(_doc({"Effect": "Allow", "NotAction": "iam:*", "Resource": "*"}),
                             ["s3:*"])
    assert not _allows("s3:GetObject", but_iam, resource="*")
    assert not _allows("iam:GetRole", but_iam, resource="*")
    assert _allows("sqs:SendMessage", but_iam)


def test_denies_and_unrelated_statements_are_kept_and_nothing_is_denied() -> None:
    deny = {"Effect": "Deny", "Action": "sqs:PurgeQueue", "Resource": "*"}
    other = {"Sid": "Other", "Effect": "Allow", "Action": "s3:GetObject", "Resource": "*"}
    before = _doc({"Effect": "Allow", "Action": "sqs:SendMessage", "Resource": QUEUE}, deny,
                  other)
    after = without_grants(before, ["sqs:SendMessage"])
    assert after["Statement"] == [deny, other]
    # An older version grants less; it does not deny what another policy allows.
    assert _allows("sqs:SendMessage", after,
                   _doc({"Effect": "Allow", "Action": "sqs:SendMessage", "Resource": "*"}))


def test_an_emptied_document_is_still_a_valid_policy_that_allows_nothing() -> None:
    after = without_grants(_doc({"Effect": "Allow", "Action": "sqs:SendMessage",
                                 "Resource": QUEUE}), ["sqs:*"])
    assert after["Statement"] == [NOTHING]
    assert not _allows("sqs:SendMessage", after)
    assert _allows("sqs:SendMessage", after,
                   _doc({"Effect": "Allow", "Action": "*", "Resource": "*"}))  # denies nothing


def test_whole_statements_granting_an_action_are_removed() -> None:
    consume = {"Sid": "Consume", "Effect": "Allow", "Resource": QUEUE,
               "Action": ["sqs:ReceiveMessage", "sqs:DeleteMessage"]}
    write = {"Sid": "Write", "Effect": "Allow", "Action": "s3:PutObject", "Resource": "*"}
    kept, removed = without_statements(_doc(consume, write), ["sqs:DeleteMessage"])
    assert removed == [consume] and kept["Statement"] == [write]
    assert not _allows("sqs:ReceiveMessage", kept)  # the whole statement went
    assert grants_any(write, ["s3:*"]) and not grants_any(write, ["sqs:*"])
    assert not grants_any({"Effect": "Deny", "Action": "s3:*", "Resource": "*"}, ["s3:*"])
