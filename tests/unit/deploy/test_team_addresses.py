"""Resources bound by Terraform address: read from the state, validated at load."""

from __future__ import annotations

from typing import Any

import pytest

from kit.deploy.addresses import STATE_ATTRIBUTE, Unaddressed, check_address, instances, lookup

STATE: dict[str, Any] = {"resources": [
    {"mode": "managed", "type": "aws_sqs_queue", "name": "notifications",
     "instances": [{"attributes": {"id": "http://x/1/notifications",
                                   "url": "http://x/1/notifications"}}]},
    {"module": "module.events", "mode": "managed", "type": "aws_sns_topic", "name": "this",
     "instances": [{"attributes": {"arn": "arn:aws:sns:us-east-1:1:events"}}]},
    {"mode": "managed", "type": "aws_sqs_queue", "name": "shard",
     "instances": [{"index_key": 0, "attributes": {"url": "http://x/1/s0"}},
                   {"index_key": "b", "attributes": {"url": "http://x/1/sb"}}]},
    {"mode": "data", "type": "aws_sqs_queue", "name": "theirs",
     "instances": [{"attributes": {"url": "http://x/1/theirs"}}]},
    {"mode": "managed", "type": "aws_dynamodb_table", "name": "effects",
     "instances": [{"attributes": {"name": "effects", "arn": "arn:t"}}]},
]}


def test_addresses_are_the_ones_terraform_writes() -> None:
    assert sorted(instances(STATE)) == [
        "aws_dynamodb_table.effects", "aws_sqs_queue.notifications", 'aws_sqs_queue.shard["b"]',
        "aws_sqs_queue.shard[0]", "module.events.aws_sns_topic.this"]


@pytest.mark.parametrize("kind, address, value", [
    ("queue", "aws_sqs_queue.notifications", "http://x/1/notifications"),
    ("topic", "module.events.aws_sns_topic.this", "arn:aws:sns:us-east-1:1:events"),
    ("queue", 'aws_sqs_queue.shard["b"]', "http://x/1/sb"),
    ("table", "aws_dynamodb_table.effects", "effects"),
])
def test_the_declared_attribute_is_read_from_the_instance(kind: str, address: str,
                                                          value: str) -> None:
    assert lookup(STATE, f"{kind}.x", kind, address) == value


def test_a_missing_address_is_the_solutions_and_lists_similar_ones() -> None:
    with pytest.raises(Unaddressed) as caught:
        lookup(STATE, "queue.n", "queue", "aws_sqs_queue.notification")
    assert "aws_sqs_queue.notifications" in str(caught.value) and "queue.n" in str(caught.value)
    with pytest.raises(Unaddressed, match="is not a managed resource instance"):
        lookup(STATE, "queue.t", "queue", "aws_sqs_queue.theirs")  # a data source


def test_an_instance_without_the_attribute_is_named() -> None:
    with pytest.raises(Unaddressed, match="has no arn"):
        lookup(STATE, "role.r", "role", "aws_sqs_queue.notifications")


@pytest.mark.parametrize("kind, address, ok", [
    ("queue", "aws_sqs_queue.q", True), ("queue", "module.a[0].module.b.aws_sqs_queue.q",
                                          True),
    ("queue", 'aws_sqs_queue.q["k"]', True), ("queue", "data.aws_sqs_queue.q", False),
    ("queue", "aws_sqs_queue", False), ("queue", "outputs.queue_url", False),
    ("queue", 7, False), ("workers", "aws_x.y", False),
])
def test_addresses_are_checked_at_load(kind: str, address: object, ok: bool) -> None:
    assert (check_address(kind, address) is None) is ok
    assert set(STATE_ATTRIBUTE) >= {"queue", "role", "topic", "table", "function", "bucket",
                                    "key", "secret", "database"}
