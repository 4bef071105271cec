"""SNS -> SQS delivery through the kit's gateway, against a real moto, as AWS documents it.

Each behaviour the kit relies on cites the page of the Amazon SNS Developer Guide (or API
reference) it follows. The subscriptions, their attributes and the queue policies are set
in the emulator (as Terraform sets them); the publish goes through the gateway, whose
fan-out (kit/gateway/sns.py) reads them back and delivers.
"""

from __future__ import annotations

import http.server
import json
import re
import threading
from typing import Any

from kit import aws
from kit.gateway.server import Gateway
from kit.run.queue import subscribed_queues
from tests.integration import iam_env
from tests.integration.iam_env import ACCT, Env, allow, assumed_role, denied, doc


def _sns_policy(queue_arn: str, topic_arn: str) -> str:
    """The queue policy the SNS developer guide gives for a topic's queue ("Fanout to
    Amazon SQS queues", step 2): sns.amazonaws.com may sqs:SendMessage, for this topic."""
    return doc(allow("sqs:SendMessage", queue_arn, Principal={"Service": "sns.amazonaws.com"},
                     Condition={"ArnEquals": {"aws:SourceArn": topic_arn}}))


def _topic(env: Env, name: str | None = None) -> str:
    name = name or f"t-{next(iam_env.names)}"
    return aws.client("sns", env.moto).create_topic(Name=name)["TopicArn"]


def _queue(env: Env, topic: str | None, *, policy: str | None = "sns",
           attributes: dict[str, str] | None = None) -> tuple[str, str, str]:
    """A queue subscribed to `topic` (its URL, ARN and subscription ARN); `policy` "sns"
    gives it the documented queue policy for the topic, None none at all."""
    url, arn = iam_env.queue(env)
    sqs = aws.client("sqs", env.moto)
    if policy is not None:
        text = _sns_policy(arn, topic or "") if policy == "sns" else policy
        sqs.set_queue_attributes(QueueUrl=url, Attributes={"Policy": text})
    if topic is None:
        return url, arn, ""
    sub = aws.client("sns", env.moto).subscribe(TopicArn=topic, Protocol="sqs", Endpoint=arn,
                                                Attributes=attributes or {},
                                                ReturnSubscriptionArn=True)
    return url, arn, sub["SubscriptionArn"]


def _publisher(env: Env, gw: Gateway, topic: str) -> Any:
    """An SNS client through the gateway as a role allowed sns:Publish on `topic`."""
    return assumed_role(env, gw, allow("sns:Publish", topic), process="producer").client(
        "sns", gw)


def _received(env: Env, url: str) -> list[dict[str, Any]]:
    got = aws.client("sqs", env.moto).receive_message(
        QueueUrl=url, MaxNumberOfMessages=10, MessageAttributeNames=["All"])
    return got.get("Messages", [])


def _deliveries(gw: Gateway) -> list[dict[str, Any]]:
    return [op.value.model_dump() for op in gw.recorder.snapshot() if op.kind == "delivery"]


def test_raw_delivery_sends_the_message_as_is_with_its_attributes(env: Env,
                                                                 gw: Gateway) -> None:
    """SNS developer guide, "Amazon SNS raw message delivery": with RawMessageDelivery an
    SQS endpoint gets the message as published, without the JSON envelope; its message
    attributes become SQS message attributes ("Message attributes ... are mapped to
    Amazon SQS message attributes")."""
    topic = _topic(env)
    url, _, _ = _queue(env, topic, attributes={"RawMessageDelivery": "true"})
    published = _publisher(env, gw, topic).publish(
        TopicArn=topic, Message='{"id": "a1"}', MessageAttributes={
            "event_type": {"DataType": "String", "StringValue": "order.created"},
            "amount": {"DataType": "Number", "StringValue": "12.5"}})
    msg, = _received(env, url)
    assert msg["Body"] == '{"id": "a1"}'
    assert msg["MessageAttributes"]["event_type"] == {"DataType": "String",
                                                      "StringValue": "order.created"}
    assert msg["MessageAttributes"]["amount"]["StringValue"] == "12.5"
    delivery, = _deliveries(gw)
    assert delivery["outcome"] == "delivered"
    assert delivery["message_id"] == published["MessageId"]
    assert delivery["queue_message_id"] == msg["MessageId"]


def test_envelope_has_the_documented_fields(env: Env, gw: Gateway) -> None:
    """SNS developer guide, "HTTP/HTTPS notification JSON format" (the body an SQS
    subscription without raw delivery gets: "Amazon SNS message and JSON formats"): Type
    Notification, MessageId (the Publish reply's), TopicArn, Subject (when given), Message,
    Timestamp (ISO 8601 UTC with milliseconds), SignatureVersion, Signature,
    SigningCertURL, UnsubscribeURL, and MessageAttributes as name -> {Type, Value}."""
    topic = _topic(env)
    url, _, sub = _queue(env, topic)
    published = _publisher(env, gw, topic).publish(
        TopicArn=topic, Message="hello", Subject="greeting", MessageAttributes={
            "event_type": {"DataType": "String", "StringValue": "order.created"}})
    msg, = _received(env, url)
    body = json.loads(msg["Body"])
    assert list(body)[:2] == ["Type", "MessageId"]
    assert body["Type"] == "Notification"
    assert body["MessageId"] == published["MessageId"]
    assert body["TopicArn"] == topic
    assert body["Subject"] == "greeting"
    assert body["Message"] == "hello"
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", body["Timestamp"])
    assert body["SignatureVersion"] in ("1", "2") and body["Signature"]
    assert body["SigningCertURL"].startswith("https://sns.us-east-1.amazonaws.com/")
    assert body["UnsubscribeURL"].endswith(f"SubscriptionArn={sub}")
    assert body["MessageAttributes"] == {"event_type": {"Type": "String",
                                                        "Value": "order.created"}}
    assert "MessageAttributes" not in msg  # enveloped: attributes live in the body


# Filter policies (SNS developer guide, "Amazon SNS message filtering": "Filter policy
# constraints", "Attribute string value matching" (exact, anything-but, prefix), "Attribute
# numeric value matching" (exact, range), "Attribute key matching" (exists), and
# "Message body filtering" with FilterPolicyScope MessageBody).
STRING = {"DataType": "String", "StringValue": "order.created"}
NUMBER = {"DataType": "Number", "StringValue": "150"}
FILTER_CASES: list[tuple[str, dict[str, Any], str | None, bool]] = [
    ("exact", {"event_type": ["order.created"]}, None, True),
    ("exact-other", {"event_type": ["order.cancelled"]}, None, False),
    ("anything-but", {"event_type": [{"anything-but": ["order.cancelled"]}]}, None, True),
    ("anything-but-hit", {"event_type": [{"anything-but": ["order.created"]}]}, None, False),
    ("prefix", {"event_type": [{"prefix": "order."}]}, None, True),
    ("prefix-other", {"event_type": [{"prefix": "refund."}]}, None, False),
    ("numeric-range", {"amount": [{"numeric": [">=", 100, "<", 200]}]}, None, True),
    ("numeric-out", {"amount": [{"numeric": [">", 150]}]}, None, False),
    ("exists", {"event_type": [{"exists": True}]}, None, True),
    ("not-exists", {"coupon": [{"exists": False}]}, None, True),
    ("exists-missing", {"coupon": [{"exists": True}]}, None, False),
    ("all-keys", {"event_type": ["order.created"], "amount": [{"numeric": ["<", 100]}]},
     None, False),
    ("body", {"order": {"status": ["paid"]}}, "MessageBody", True),
    ("body-other", {"order": {"status": ["refunded"]}}, "MessageBody", False),
]


def test_filter_policies_decide_each_subscription(env: Env, gw: Gateway) -> None:
    """One publish, one subscription per filter policy: a message a policy rejects is not
    delivered to that subscription ("Amazon SNS message filtering": "the subscriber
    receives only the messages that match its filter policy"), and the others get it."""
    topic = _topic(env)
    subs = {}
    for name, policy, scope, _ in FILTER_CASES:
        attributes = {"FilterPolicy": json.dumps(policy), "RawMessageDelivery": "true"}
        if scope:
            attributes["FilterPolicyScope"] = scope
        subs[name] = _queue(env, topic, attributes=attributes)
    _publisher(env, gw, topic).publish(
        TopicArn=topic, Message=json.dumps({"order": {"status": "paid", "id": "o7"}}),
        MessageAttributes={"event_type": STRING, "amount": NUMBER})
    by_sub = {d["subscription"]: d for d in _deliveries(gw)}
    for name, _, _, expected in FILTER_CASES:
        url, _, sub = subs[name]
        delivered = bool(_received(env, url))
        assert delivered is expected, name
        assert by_sub[sub]["outcome"] == ("delivered" if expected else "filtered"), name
        if not expected:
            assert sub in by_sub[sub]["reason"] and "filter policy" in by_sub[sub]["reason"]


def test_a_queue_without_a_policy_for_sns_gets_nothing(env: Env, gw: Gateway) -> None:
    """SNS developer guide, "Fanout to Amazon SQS queues" step 2: the queue policy must
    allow sns.amazonaws.com sqs:SendMessage (conditioned on aws:SourceArn, the topic), or
    the topic cannot send to the queue; the publisher's Publish still succeeds."""
    topic, other = _topic(env), _topic(env)
    none_url, none_arn, _ = _queue(env, topic, policy=None)
    wrong_url, wrong_arn, _ = _queue(env, topic)  # its policy names `other`
    aws.client("sqs", env.moto).set_queue_attributes(
        QueueUrl=wrong_url, Attributes={"Policy": _sns_policy(wrong_arn, other)})
    right_url, _, _ = _queue(env, topic)
    _publisher(env, gw, topic).publish(TopicArn=topic, Message="m")
    assert not _received(env, none_url) and not _received(env, wrong_url)
    assert len(_received(env, right_url)) == 1
    outcomes = {d["endpoint"]: d for d in _deliveries(gw)}
    for arn in (none_arn, wrong_arn):
        assert outcomes[arn]["outcome"] == "refused"
        assert f"refused by the queue policy of {arn}" in outcomes[arn]["reason"]


def test_moto_alone_delivers_past_the_queue_policy(env: Env) -> None:
    """Why the kit fans out itself: moto's own Publish delivers to a queue whose policy
    does not admit SNS (AWS would not: "Fanout to Amazon SQS queues", step 2)."""
    topic = _topic(env)
    url, _, _ = _queue(env, topic, policy=None)
    aws.client("sns", env.moto).publish(TopicArn=topic, Message="m")
    assert len(_received(env, url)) == 1  # the emulator's gap the gateway closes


def test_publish_needs_sns_publish_and_the_topic_policy(env: Env, gw: Gateway) -> None:
    """SNS API reference, Publish: sns:Publish on the topic; a topic policy's Deny wins
    (IAM policy evaluation logic); SNS answers AuthorizationError (Common Errors)."""
    topic = _topic(env)
    url, _, _ = _queue(env, topic)
    bare = assumed_role(env, gw, allow("sqs:SendMessage"), process="producer")
    denied(lambda: bare.client("sns", gw).publish(TopicArn=topic, Message="m"),
           "AuthorizationError")
    publisher = _publisher(env, gw, topic)
    aws.client("sns", env.moto).set_topic_attributes(
        TopicArn=topic, AttributeName="Policy", AttributeValue=doc(
            {"Effect": "Deny", "Principal": "*", "Action": "sns:Publish", "Resource": topic}))
    gw.invalidate()
    denied(lambda: publisher.publish(TopicArn=topic, Message="m"), "AuthorizationError")
    assert not _received(env, url) and not _deliveries(gw)


def test_publish_batch_and_fifo_topics(env: Env, gw: Gateway) -> None:
    """SNS API reference, PublishBatch (needs sns:Publish; up to 10 entries, each answered)
    and Publish on a FIFO topic: MessageGroupId required ("InvalidParameter"), passed on to
    a FIFO queue with the deduplication id."""
    sns = aws.client("sns", env.moto)
    topic = sns.create_topic(Name=f"f-{next(iam_env.names)}.fifo", Attributes={
        "FifoTopic": "true", "ContentBasedDeduplication": "true"})["TopicArn"]
    fifo_name = f"q-{next(iam_env.names)}.fifo"
    url = aws.client("sqs", env.moto).create_queue(
        QueueName=fifo_name, Attributes={"FifoQueue": "true"})["QueueUrl"]
    arn = f"arn:aws:sqs:us-east-1:{ACCT}:{fifo_name}"
    aws.client("sqs", env.moto).set_queue_attributes(
        QueueUrl=url, Attributes={"Policy": _sns_policy(arn, topic)})
    sns.subscribe(TopicArn=topic, Protocol="sqs", Endpoint=arn,
                  Attributes={"RawMessageDelivery": "true"})
    client = _publisher(env, gw, topic)
    denied(lambda: client.publish(TopicArn=topic, Message="m"), "InvalidParameter")
    reply = client.publish_batch(TopicArn=topic, PublishBatchRequestEntries=[
        {"Id": "one", "Message": "m1", "MessageGroupId": "g"},
        {"Id": "two", "Message": "m2", "MessageGroupId": "g"},
        {"Id": "bad", "Message": "m3"}])
    assert sorted(e["Id"] for e in reply["Successful"]) == ["one", "two"]
    first, second = (int(e["SequenceNumber"]) for e in reply["Successful"])
    assert first < second  # FIFO topics number each message (API reference, PublishBatch)
    assert [e["Id"] for e in reply["Failed"]] == ["bad"]
    got = aws.client("sqs", env.moto).receive_message(
        QueueUrl=url, MaxNumberOfMessages=10, AttributeNames=["MessageGroupId"])["Messages"]
    assert [m["Body"] for m in got] == ["m1", "m2"]
    assert {m["Attributes"]["MessageGroupId"] for m in got} == {"g"}


def test_a_missing_queue_or_topic_is_the_publishers_answer_not_the_kits(
        env: Env, gw: Gateway) -> None:
    """SNS accepts a subscription to a queue that does not exist, and a Publish to it
    succeeds (the delivery fails on SNS's side); a Publish to a topic that does not exist
    is refused with NotFound (SNS API reference, Publish errors). Neither is the kit's
    error: quiescence has no queue to wait on."""
    sns, sqs = aws.client("sns", env.moto), aws.client("sqs", env.moto)
    topic = _topic(env)
    ghost = f"arn:aws:sqs:us-east-1:{ACCT}:ghost-{next(iam_env.names)}"
    sns.subscribe(TopicArn=topic, Protocol="sqs", Endpoint=ghost)
    client = assumed_role(env, gw, allow("sns:Publish"), process="producer").client("sns", gw)
    client.publish(TopicArn=topic, Message="m")
    delivery, = _deliveries(gw)
    assert delivery["outcome"] == "failed" and "does not exist" in delivery["reason"]
    assert subscribed_queues(sns, sqs, topic) == []
    gone = f"{topic}-gone"
    denied(lambda: client.publish(TopicArn=gone, Message="m"), "NotFound")
    assert subscribed_queues(sns, sqs, gone) == []


def test_an_encrypted_queue_needs_a_customer_key_that_lets_sns_use_it(
        env: Env, gw: Gateway) -> None:
    """SQS developer guide, "Enable compatibility between AWS services such as Amazon SNS
    and queues with encryption": SNS can deliver to an SSE-KMS queue only under a customer
    managed key whose key policy allows sns.amazonaws.com kms:GenerateDataKey and
    kms:Decrypt; the AWS managed key for SQS (alias/aws/sqs) does not allow it."""
    kms, sqs = aws.client("kms", env.moto), aws.client("sqs", env.moto)
    root = {"Effect": "Allow", "Principal": {"AWS": f"arn:aws:iam::{ACCT}:root"},
            "Action": "kms:*", "Resource": "*"}
    service = {"Effect": "Allow", "Principal": {"Service": "sns.amazonaws.com"},
               "Action": ["kms:GenerateDataKey", "kms:Decrypt"], "Resource": "*"}
    allowing = kms.create_key(Policy=doc(root, service))["KeyMetadata"]["Arn"]
    silent = kms.create_key(Policy=doc(root))["KeyMetadata"]["Arn"]
    topic = _topic(env)
    queues = {}
    for name, key in (("customer-allows", allowing), ("customer-silent", silent),
                      ("aws-managed", "alias/aws/sqs")):
        url, arn, _ = _queue(env, topic)
        sqs.set_queue_attributes(QueueUrl=url, Attributes={"KmsMasterKeyId": key})
        queues[name] = (url, arn)
    gw.invalidate()
    _publisher(env, gw, topic).publish(TopicArn=topic, Message="m")
    outcomes = {d["endpoint"]: d for d in _deliveries(gw)}
    assert outcomes[queues["customer-allows"][1]]["outcome"] == "delivered"
    assert len(_received(env, queues["customer-allows"][0])) == 1
    for name in ("customer-silent", "aws-managed"):
        assert outcomes[queues[name][1]]["outcome"] == "refused", name
        assert not _received(env, queues[name][0])
    assert f"key policy of {silent}" in outcomes[queues["customer-silent"][1]]["reason"]
    assert "not a customer managed key" in outcomes[queues["aws-managed"][1]]["reason"]


def test_an_http_subscription_is_never_contacted(env: Env, gw: Gateway) -> None:
    """The kit delivers to sqs subscriptions only: an http one (which moto's own fan-out
    would POST to, from the host) is recorded as skipped and its URL gets no request."""
    hits: list[str] = []

    class Listener(http.server.BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 - the stdlib's name
            hits.append(self.path)
            self.send_response(200)
            self.end_headers()

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Listener)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        topic = _topic(env)
        url = f"http://127.0.0.1:{server.server_address[1]}/hook"
        aws.client("sns", env.moto).subscribe(TopicArn=topic, Protocol="http", Endpoint=url)
        _publisher(env, gw, topic).publish(TopicArn=topic, Message="m")
        delivery, = _deliveries(gw)
        assert delivery["outcome"] == "skipped" and delivery["endpoint"] == url
        aws.client("sns", env.moto).publish(TopicArn=topic, Message="m")  # moto's own
        assert hits == ["/hook"]  # the listener works: only moto's own fan-out reached it
    finally:
        server.shutdown()
        server.server_close()
