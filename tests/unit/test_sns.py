"""SNS producers and the kit's fan-out, without services: the scenario fields, the action
mapping, filter policies, the envelope, the queue policy a delivery needs, the checkers'
reading of `delivery` ops."""

from __future__ import annotations

import json
import shutil
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
import yaml

from kit import scenario
from kit.checks.delivery import POISON_TO_DLQ, check_no_loss, check_poison_to_dlq
from kit.checks.producer import check_producer_sends
from kit.checks.workers import check_workers_start
from kit.errors import InputError
from kit.gateway import actions
from kit.gateway.policies import Resource
from kit.gateway.sns import service_decision as decision
from kit.gateway.sns_message import Message, PublishError, Subscription, envelope, parse_message
from kit.history import FinalState, History, QueueMessage, parse_op
from kit.iam import parse_policy
from kit.workload.api import Send
from kit.workload.notifications import unwrap
from kit.workload.producer import Target
from tests.unit.checks.builder import params_of

GOOD = scenario.SCENARIOS / "order-pipeline" / "scenario.yaml"
ACCT = "123456789012"
TOPIC = f"arn:aws:sns:us-east-1:{ACCT}:orders"
QUEUE = f"arn:aws:sqs:us-east-1:{ACCT}:orders"


# -- scenario.yaml: workload.producer -------------------------------------------------------

def _load(tmp_path: Path, producer: dict[str, Any]) -> scenario.Scenario:
    data = yaml.safe_load(GOOD.read_text())
    data["resources"]["topic.events"] = {"arn": "outputs.topic_arn"}
    data["contract"]["outputs"].append("topic_arn")
    data["workload"]["producer"] = producer
    (tmp_path / "scenario.yaml").write_text(yaml.safe_dump(data))
    shutil.copy(GOOD.with_name("workload.py"), tmp_path)
    return scenario.load(tmp_path / "scenario.yaml")


def test_a_producer_may_publish_to_a_topic_with_attributes(tmp_path: Path) -> None:
    loaded = _load(tmp_path, {"role": "role.producer", "topic": "topic.events",
                              "attributes": {"event_type": "order.created"}})
    producer = loaded.workload.producer
    assert producer is not None and producer.target == "topic.events"
    assert producer.queue is None and producer.attributes == {"event_type": "order.created"}
    assert "sns" in loaded.aws_services


@pytest.mark.parametrize("producer, field", [
    ({"role": "role.producer"}, "workload.producer: Value error, give exactly one of queue"),
    ({"role": "role.producer", "queue": "queue.orders", "topic": "topic.events"},
     "give exactly one of queue"),
    ({"role": "role.producer", "queue": "queue.orders", "attributes": {"a": "b"}},
     "attributes are SNS message attributes: give them with topic"),
    ({"role": "role.producer", "topic": "topic.events", "attributes": {"AWS.x": "b"}},
     "'AWS.x' is not an SNS message attribute name"),
    ({"role": "role.producer", "topic": "topic.events", "attributes": {"a": 1}},
     "workload.producer.attributes.a"),
    ({"role": "role.producer", "topic": "queue.orders"},
     "workload.producer.topic: 'queue.orders' is not a declared topic"),
    ({"role": "role.producer", "topic": "topic.nope"},
     "workload.producer.topic: 'topic.nope' is not a declared topic"),
])
def test_a_bad_producer_names_the_file_and_field(tmp_path: Path, producer: dict[str, Any],
                                                 field: str) -> None:
    with pytest.raises(InputError) as caught:
        _load(tmp_path, producer)
    assert str(tmp_path / "scenario.yaml") in str(caught.value)
    assert field in str(caught.value)


def test_the_producer_publishes_with_string_attributes() -> None:
    send = Send(body='{"order_id": "o1"}', group="g", dedup_id="d")
    method, request = Target("topic", "topic.events", TOPIC, {"kind": "created"}).request(send)
    assert method == "publish"
    assert request == {"TopicArn": TOPIC, "Message": send.body, "MessageGroupId": "g",
                       "MessageDeduplicationId": "d", "MessageAttributes": {
                           "kind": {"DataType": "String", "StringValue": "created"}}}
    method, request = Target("queue", "queue.orders", "http://q/1/orders").request(send)
    assert method == "send_message" and request["QueueUrl"] == "http://q/1/orders"
    assert "MessageAttributes" not in request


# -- the gateway's action mapping ------------------------------------------------------------

def _describe(params: dict[str, str]) -> actions.Call:
    body = "&".join(f"{k}={v}" for k, v in {"Version": "2010-03-31", **params}.items())
    return actions.describe("POST", "/", {}, body.encode(), service="sns", account=ACCT)


@pytest.mark.parametrize("params, check", [
    ({"Action": "Publish", "TopicArn": TOPIC, "Message": "m"}, ("sns:Publish", TOPIC)),
    ({"Action": "Publish", "TargetArn": TOPIC, "Message": "m"}, ("sns:Publish", TOPIC)),
    ({"Action": "PublishBatch", "TopicArn": TOPIC}, ("sns:Publish", TOPIC)),
    ({"Action": "Subscribe", "TopicArn": TOPIC}, ("sns:Subscribe", TOPIC)),
    ({"Action": "GetSubscriptionAttributes", "SubscriptionArn": f"{TOPIC}:abc-1"},
     ("sns:GetSubscriptionAttributes", TOPIC)),
    ({"Action": "CreateTopic", "Name": "orders"}, ("sns:CreateTopic", TOPIC)),
    ({"Action": "ListTopics"}, ("sns:ListTopics", "*")),
])
def test_sns_calls_are_authorized_on_their_topic(params: dict[str, str],
                                                 check: tuple[str, str]) -> None:
    call = _describe(params)
    assert call.service == "sns" and call.protocol == "query"
    assert [(c.action, c.resource) for c in call.checks] == [check]


def test_an_unmappable_sns_call_is_denied_with_its_reason() -> None:
    assert not _describe({"Action": "Publish", "PhoneNumber": "+15550100"}).mapped
    assert "names no topic" in _describe({"Action": "Publish", "Message": "m"}).problem
    assert not _describe({"Action": "FlyToTheMoon"}).mapped


# -- messages, filter policies, the envelope -------------------------------------------------

ATTRS = {"MessageAttributes.entry.1.Name": "event_type",
         "MessageAttributes.entry.1.Value.DataType": "String",
         "MessageAttributes.entry.1.Value.StringValue": "order.created",
         "MessageAttributes.entry.2.Name": "amount",
         "MessageAttributes.entry.2.Value.DataType": "Number",
         "MessageAttributes.entry.2.Value.StringValue": "150"}
BODY = json.dumps({"order": {"status": "paid"}, "customer": "c-1"})


def test_a_publish_is_read_as_sns_holds_it() -> None:
    message = parse_message({"Message": BODY, "Subject": "s", **ATTRS}, TOPIC)
    assert message.attributes == {"event_type": {"Type": "String", "Value": "order.created"},
                                  "amount": {"Type": "Number", "Value": "150"}}
    assert message.sqs_attributes()["amount"] == {"DataType": "Number", "StringValue": "150"}
    structured = parse_message({"Message": json.dumps({"default": "d", "sqs": "q"}),
                                "MessageStructure": "json"}, TOPIC)
    assert structured.body_for("sqs") == "q" and structured.body_for("lambda") == "d"


@pytest.mark.parametrize("params, code", [
    ({}, "InvalidParameter"),
    ({"Message": "x" * (256 * 1024 + 1)}, "InvalidParameter"),
    ({"Message": "m", "MessageStructure": "json"}, "InvalidParameter"),
    ({"Message": "m", **{**ATTRS, "MessageAttributes.entry.2.Value.StringValue": "many"}},
     "ParameterValueInvalid"),
    ({"Message": "m", **{**ATTRS, "MessageAttributes.entry.1.Value.DataType": "Text"}},
     "ParameterValueInvalid"),
])
def test_a_publish_sns_refuses_is_refused(params: dict[str, str], code: str) -> None:
    with pytest.raises(PublishError) as refused:
        parse_message(params, TOPIC)
    assert refused.value.code == code


# SNS developer guide, "Amazon SNS message filtering" (string exact / anything-but /
# prefix, numeric exact and ranges, exists; AND across keys, OR within a key's list;
# FilterPolicyScope MessageBody matches the JSON body's nested keys).
@pytest.mark.parametrize("policy, scope, expected", [
    ({"event_type": ["order.created", "order.paid"]}, None, True),
    ({"event_type": ["order.cancelled"]}, None, False),
    ({"event_type": [{"anything-but": ["order.cancelled"]}]}, None, True),
    ({"event_type": [{"anything-but": ["order.created"]}]}, None, False),
    ({"event_type": [{"prefix": "order."}]}, None, True),
    ({"event_type": [{"prefix": "refund."}]}, None, False),
    ({"amount": [{"numeric": ["=", 150]}]}, None, True),
    ({"amount": [{"numeric": [">=", 100, "<", 200]}]}, None, True),
    ({"amount": [{"numeric": [">", 150]}]}, None, False),
    ({"event_type": [{"exists": True}]}, None, True),
    ({"coupon": [{"exists": False}]}, None, True),
    ({"coupon": [{"exists": True}]}, None, False),
    ({"event_type": ["order.created"], "amount": [{"numeric": ["<", 100]}]}, None, False),
    ({"order": {"status": ["paid"]}}, "MessageBody", True),
    ({"order": {"status": ["refunded"]}}, "MessageBody", False),
    ({"customer": [{"prefix": "c-"}]}, "MessageBody", True),
    ({"event_type": ["order.created"]}, "MessageBody", False),  # not in the body
])
def test_filter_policies_match_as_documented(policy: dict[str, Any], scope: str | None,
                                            expected: bool) -> None:
    message = parse_message({"Message": BODY, **ATTRS}, TOPIC)
    sub = Subscription(f"{TOPIC}:s1", "sqs", QUEUE, filter_policy=policy,
                       scope=scope or "MessageAttributes")
    assert sub.accepts(message) is expected


def test_the_envelope_carries_the_documented_fields_and_unwraps() -> None:
    message = parse_message({"Message": BODY, "Subject": "s", **ATTRS}, TOPIC)
    sub = Subscription(f"{TOPIC}:s1", "sqs", QUEUE)
    body = envelope(message, "mid-1", sub, datetime(2026, 12, 1, 9, 8, 7, 654321, UTC))
    doc = json.loads(body)
    assert list(doc) == ["Type", "MessageId", "TopicArn", "Subject", "Message", "Timestamp",
                         "SignatureVersion", "Signature", "SigningCertURL", "UnsubscribeURL",
                         "MessageAttributes"]
    assert doc["Timestamp"] == "2026-12-01T09:08:07.654Z"
    assert doc["MessageAttributes"]["amount"] == {"Type": "Number", "Value": "150"}
    assert unwrap(body) == BODY
    assert unwrap(BODY) == BODY  # a raw delivery
    assert unwrap('{"Type": "Notification"}') == '{"Type": "Notification"}'  # no TopicArn


# -- the queue policy a delivery needs -------------------------------------------------------

def _queue(statements: list[dict[str, Any]] | None) -> Resource:
    if statements is None:
        return Resource(QUEUE)
    policy = parse_policy({"Version": "2012-10-17", "Statement": statements})
    return Resource(QUEUE, policy)


SNS_ALLOW = {"Effect": "Allow", "Principal": {"Service": "sns.amazonaws.com"},
             "Action": "sqs:SendMessage", "Resource": QUEUE,
             "Condition": {"ArnEquals": {"aws:SourceArn": TOPIC}}}


@pytest.mark.parametrize("statements, allowed", [
    ([SNS_ALLOW], True),
    (None, False),  # no queue policy: only a resource policy can grant a service
    ([{**SNS_ALLOW, "Condition": {"ArnEquals": {"aws:SourceArn": TOPIC + "-other"}}}], False),
    ([{**SNS_ALLOW, "Condition": {"StringEquals": {"aws:SourceAccount": ACCT}}}], True),
    ([{**SNS_ALLOW, "Principal": {"AWS": f"arn:aws:iam::{ACCT}:root"}}], False),
    ([{**SNS_ALLOW, "Principal": "*"}], True),
    ([SNS_ALLOW, {**SNS_ALLOW, "Effect": "Deny", "Condition": {
        "Bool": {"aws:SecureTransport": "false"}}}], True),  # SNS delivers over TLS
    ([SNS_ALLOW, {**SNS_ALLOW, "Effect": "Deny"}], False),
])
def test_sns_may_send_to_a_queue_only_as_its_policy_says(
        statements: list[dict[str, Any]] | None, allowed: bool) -> None:
    assert decision("sqs:SendMessage", _queue(statements), TOPIC).allowed is allowed


# -- the checkers read `delivery` ops ---------------------------------------------------------

def _history(outcome: str, reason: str = "", received: bool = False) -> History:
    body = json.dumps({"order_id": "o-1", "customer_id": "c-1", "amount_cents": 100})
    ops: list[dict[str, Any]] = [
        {"process": "kit", "kind": "worker_start", "value": {"worker": "worker-0", "pid": 1}},
        {"process": "producer", "kind": "send", "value": {
            "message_id": "sns-1", "duplicate_of": None, "body": body, "key": "o-1",
            "fields": {"order_id": "o-1"}, "valid": True, "topic": "topic.events"}},
        {"process": "sns", "kind": "delivery", "value": {
            "message_id": "sns-1", "topic": TOPIC, "subscription": f"{TOPIC}:s1",
            "endpoint": QUEUE, "outcome": outcome, "reason": reason, "key": "o-1",
            "queue_message_id": "sqs-1" if outcome == "delivered" else None}}]
    if received:
        ops.append({"process": "worker-0", "kind": "receive", "value": {
            "message_id": "sqs-1", "key": "o-1", "receive_count": 1}})
    final = FinalState(effects=[])
    return History(ops=tuple(parse_op({"index": n, "time": float(n), **op})
                             for n, op in enumerate(ops)), final=final)


def test_no_loss_says_sns_never_delivered_a_lost_message() -> None:
    reason = f"refused by the queue policy of {QUEUE}: no resource-based policy statement"
    result = check_no_loss(_history("refused", reason), {})
    assert result.verdict == "fail"
    assert f"SNS never delivered 1 of them to a queue: {reason}" in result.summary
    assert result.evidence["not_delivered_by_sns"] == {reason: ["o-1"]}
    trail = result.evidence["lost"]["example"]["trail"]
    assert trail[0]["outcome"] == "refused" and trail[0]["reason"] == reason


def test_no_loss_follows_a_delivered_copy_to_its_receives() -> None:
    result = check_no_loss(_history("delivered", received=True), {})
    assert result.verdict == "fail" and "not_delivered_by_sns" not in result.evidence
    trail = result.evidence["lost"]["example"]["trail"]
    assert [(e["kind"], e["message_id"]) for e in trail] == [("delivery", "sns-1"),
                                                            ("receive", "sqs-1")]


def test_workers_are_not_blamed_for_what_sns_never_delivered() -> None:
    assert check_workers_start(_history("filtered", "dropped"), {}).verdict == "pass"
    assert check_workers_start(_history("delivered"), {}).verdict == "fail"
    assert check_workers_start(_history("delivered", received=True), {}).verdict == "pass"


def _poison_history(receive_count: int) -> History:
    """A poison body published to a topic, delivered as sqs-9, redriven to the DLQ."""
    ops: list[dict[str, Any]] = [
        {"process": "producer", "kind": "send", "value": {
            "message_id": "sns-9", "duplicate_of": None, "body": "not json", "key": None,
            "fields": {}, "valid": False, "topic": "topic.events"}},
        {"process": "sns", "kind": "delivery", "value": {
            "message_id": "sns-9", "topic": TOPIC, "subscription": f"{TOPIC}:s1",
            "endpoint": QUEUE, "outcome": "delivered", "reason": "", "key": None,
            "queue_message_id": "sqs-9"}}]
    dlq = [QueueMessage(message_id="sqs-9", body="not json", receive_count=receive_count,
                        valid=False)]
    return History(ops=tuple(parse_op({"index": n, "time": float(n), **op})
                             for n, op in enumerate(ops)),
                   final=FinalState(effects=[], queues={"queue.dlq": dlq}))


def test_poison_published_to_a_topic_is_found_in_the_dlq_under_its_queue_id() -> None:
    params = params_of(POISON_TO_DLQ, max_receives=3)
    passed = check_poison_to_dlq(_poison_history(3), params)
    assert passed.verdict == "pass" and passed.evidence["moved_by_worker"] == 0
    over = check_poison_to_dlq(_poison_history(4), params)
    assert over.verdict == "fail" and over.evidence["over_received"]["count"] == 1


def test_a_refused_publish_says_topic() -> None:
    op = parse_op({"index": 0, "time": 0.0, "process": "producer", "kind": "send",
                   "type": "fail", "value": {"error": "AuthorizationError: no", "body": "b",
                                             "topic": "topic.events"}})
    result = check_producer_sends(History(ops=(op,)), {})
    assert result.verdict == "fail" and "to the solution's topic" in result.summary


# Rules that do not fit a value's type match nothing, and the others of the key still count
# ("Amazon SNS message filtering": OR within a key); moto's matcher raises on each of these,
# so the kit's would crash a run on a poison body. [policy, scope, body, attributes, matches]
MISFITS: list[tuple[dict[str, Any], str, str, dict[str, Any], bool]] = [
    ({"a": [{"prefix": "x"}]}, "MessageBody", '{"a": 1}', {}, False),
    ({"a": [{"prefix": "x"}, 1]}, "MessageBody", '{"a": 1}', {}, True),
    ({"a": [{"numeric": [">", 1]}]}, "MessageBody", '{"a": "x"}', {}, False),
    ({"a": ["x"]}, "MessageBody", '[1, 2]', {}, False),  # a poison body: a JSON array
    ({"a": {"b": [{"suffix": "x"}]}}, "MessageBody", '{"a": {"b": null}}', {}, False),
    ({"a": [1]}, "MessageAttributes", "m", {"a": {"Type": "Number", "Value": "1e400"}}, False),
]


@pytest.mark.parametrize("policy, scope, body, attributes, expected", MISFITS)
def test_a_rule_that_does_not_fit_a_value_does_not_match_it(
        policy: dict[str, Any], scope: str, body: str, attributes: dict[str, Any],
        expected: bool) -> None:
    from moto.sns.utils import FilterPolicyMatcher

    with pytest.raises((TypeError, ValueError, AttributeError, OverflowError)):
        FilterPolicyMatcher(policy, scope).matches(attributes, body)  # moto's, as it is
    message = Message(TOPIC, body, attributes=attributes)
    sub = Subscription(f"{TOPIC}:s1", "sqs", QUEUE, filter_policy=policy, scope=scope)
    assert sub.accepts(message) is expected
