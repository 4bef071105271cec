"""SNS delivery as AWS does it: the kit answers Publish itself and fans the message out to
the topic's subscriptions, read from the emulator, so every delivery obeys the queue policy.

Why the kit and not moto: moto's server delivers SNS -> SQS in-process (its Subscription
calls the SQS backend directly), which bypasses the gateway, so a queue without a policy
for sns.amazonaws.com still gets every message. On AWS it gets none. So an authorized
Publish (or PublishBatch) is never forwarded: the gateway hands it here, and the kit
- reads the topic and its subscriptions from the emulator (the emulator's state, set by
  the solution's Terraform, stays the one source of truth: `ListSubscriptionsByTopic`,
  `GetSubscriptionAttributes`);
- per SQS subscription, applies its filter policy with moto's own matcher
  (`FilterPolicyMatcher`: attribute and `FilterPolicyScope: MessageBody` policies), rule
  by rule, so that a rule which does not fit a value's type does not match it where moto's
  raises (a prefix rule on a number, a body that is not a JSON object);
- authorizes the delivery as SNS's service principal: the queue policy must allow
  `sns.amazonaws.com` `sqs:SendMessage` on the queue, with aws:SourceArn = the topic ARN
  and aws:SourceAccount = its owner (SNS developer guide, "Fanout to Amazon SQS queues",
  step 2 "Give permission to the Amazon SNS topic to send messages to the Amazon SQS
  queue"); a queue encrypted with SSE-KMS needs a customer managed key whose key policy
  allows the service `kms:GenerateDataKey` and `kms:Decrypt`: the AWS managed key
  alias/aws/sqs cannot be used (SQS developer guide, "Enable compatibility between AWS
  services such as Amazon SNS and queues with encryption");
- sends the message to the queue with the kit's credentials straight to the emulator:
  the raw body and its attributes as SQS message attributes when the subscription has
  RawMessageDelivery, else the JSON envelope (SNS developer guide, "Amazon SNS message
  raw delivery" and "HTTP/HTTPS notification JSON format").
Every subscription's outcome is a `delivery` op of process `sns` in the history:
delivered (with the queue's message id), filtered, refused (the policy that refused),
failed (the queue is gone) or skipped (a protocol the kit does not deliver), so a checker
can say why a message never arrived. A delivery SNS does not make is silent on AWS: the
publisher's Publish succeeds whatever the subscriptions do.

Not delivered by the kit: protocols other than sqs (lambda, http/s, email, ...) are
recorded as skipped. The envelope's Signature is not a verifiable signature (its
certificate URL cannot be reached offline anyway).
"""

from __future__ import annotations

import hashlib
import json
import threading
import uuid
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from typing import Any
from xml.sax.saxutils import escape

from botocore.exceptions import ClientError

from kit import aws
from kit.gateway import replies
from kit.gateway.actions import Call
from kit.gateway.policies import PolicyStore, Resource
from kit.gateway.sns_message import (
    Message,
    PublishError,
    Subscription,
    envelope,
    parse_message,
)
from kit.history import bounded
from kit.iam import Decision, Request
from kit.iam.evaluate import decide
from kit.recorder import Recorder

SERVICE = "sns.amazonaws.com"
XMLNS = "http://sns.amazonaws.com/doc/2010-03-31/"


def service_decision(action: str, resource: Resource, topic: str,
                     service: str = SERVICE) -> Decision:
    """Whether `resource`'s policy lets a service principal (SNS by default), acting for
    `topic` (its aws:SourceArn: a topic, an EventBridge rule), do `action` on it: only a
    resource policy can grant a service principal."""
    if resource.problems:
        return Decision("ImplicitDeny", (), f"the policy of {resource.arn} does not parse: "
                        f"{resource.problems[0]}")
    now = datetime.now(UTC)
    owner, region = topic.split(":")[4], topic.split(":")[3]
    context = {"aws:SourceArn": topic, "aws:SourceAccount": owner,
               "aws:SecureTransport": True, "aws:PrincipalIsAWSService": True,
               "aws:ViaAWSService": False, "aws:RequestedRegion": region,
               "aws:CurrentTime": now.strftime("%Y-%m-%dT%H:%M:%SZ"),
               "aws:EpochTime": int(now.timestamp()),
               "aws:PrincipalServiceName": service}
    request = Request(service, action, resource.arn, context)
    return decide(request, [], boundary=None, sessions=[], resource=resource.policy,
                  scp_levels=[], principal_account=None, trust=False)


class Fanout:
    """Answers authorized Publish / PublishBatch calls: delivery to the topic's
    subscriptions, each outcome recorded."""

    def __init__(self, client: Callable[[str], Any], store: PolicyStore, recorder: Recorder,
                 sqs_url: str, key_of: Callable[[str], str | None]) -> None:
        self._client, self.store, self.recorder = client, store, recorder
        self.sqs_url = sqs_url.rstrip("/")
        self.key_of = key_of
        self._sequence = 0
        self._lock = threading.Lock()  # the gateway serves requests on many threads

    def answer(self, call: Call) -> replies.Reply:
        """The reply to an authorized Publish or PublishBatch (deliveries made first)."""
        params = call.params
        topic = str(call.checks[0].resource)
        try:
            fifo, content_dedup = self._topic(topic)
            if call.operation == "Publish":
                message = self._checked(parse_message(params, topic), fifo, content_dedup)
                message_id, sequence = self.publish(message)
                extra = f"<SequenceNumber>{sequence}</SequenceNumber>" if sequence else ""
                return _reply("Publish", f"<MessageId>{message_id}</MessageId>{extra}")
            return self._batch(params, topic, fifo, content_dedup)
        except PublishError as exc:
            return replies.error("sns", "query", exc.code, exc.message, status=exc.status)

    def _batch(self, params: Mapping[str, str], topic: str, fifo: bool,
               content_dedup: bool) -> replies.Reply:
        prefix = "PublishBatchRequestEntries.member."
        numbers = sorted({int(k[len(prefix):].split(".")[0]) for k in params
                          if k.startswith(prefix) and k.endswith(".Id")})
        if not numbers or len(numbers) > 10:
            raise PublishError("TooManyEntriesInBatchRequest" if numbers else
                               "EmptyBatchRequest", "A batch holds 1 to 10 entries.")
        ok, failed = [], []
        for n in numbers:
            entry_id = escape(params[f"{prefix}{n}.Id"])
            try:
                message = self._checked(parse_message(params, topic, f"{prefix}{n}."),
                                        fifo, content_dedup)
            except PublishError as exc:
                failed.append(f"<member><Id>{entry_id}</Id><Code>{exc.code}</Code>"
                              f"<Message>{escape(exc.message)}</Message>"
                              "<SenderFault>true</SenderFault></member>")
                continue
            message_id, sequence = self.publish(message)
            extra = f"<SequenceNumber>{sequence}</SequenceNumber>" if sequence else ""
            ok.append(f"<member><Id>{entry_id}</Id><MessageId>{message_id}</MessageId>"
                      f"{extra}</member>")
        return _reply("PublishBatch", f"<Successful>{''.join(ok)}</Successful>"
                      f"<Failed>{''.join(failed)}</Failed>")

    def _topic(self, topic: str) -> tuple[bool, bool]:
        """Whether the topic is FIFO and deduplicates by content; NotFound when it is gone."""
        try:
            attrs = self._client("sns").get_topic_attributes(TopicArn=topic)["Attributes"]
        except ClientError as exc:
            if exc.response.get("Error", {}).get("Code") in ("NotFound", "NotFoundException"):
                raise PublishError("NotFound", "Topic does not exist", 404) from None
            raise
        return (attrs.get("FifoTopic") == "true",
                attrs.get("ContentBasedDeduplication") == "true")

    @staticmethod
    def _checked(message: Message, fifo: bool, content_dedup: bool) -> Message:
        """A FIFO topic's message has a group and a deduplication id (SNS API reference,
        Publish: MessageGroupId "required for FIFO topics"; MessageDeduplicationId unless
        the topic has content-based deduplication: a SHA-256 of the body)."""
        if not fifo:
            if message.group is not None:
                raise PublishError("InvalidParameter", "Invalid parameter: MessageGroupId "
                                   "Reason: The request includes MessageGroupId parameter "
                                   "that is not valid for this topic type")
            return message
        if not message.group:
            raise PublishError("InvalidParameter", "Invalid parameter: The MessageGroupId "
                               "parameter is required for FIFO topics")
        if message.dedup:
            return message
        if not content_dedup:
            raise PublishError("InvalidParameter", "Invalid parameter: The topic should "
                               "either have ContentBasedDeduplication enabled or "
                               "MessageDeduplicationId provided explicitly")
        digest = hashlib.sha256(message.body.encode()).hexdigest()
        return Message(message.topic, message.body, message.subject, message.attributes,
                       message.group, digest, message.structure)

    def publish(self, message: Message) -> tuple[str, str | None]:
        """Deliver one message to every subscription of its topic; its SNS message id and,
        on a FIFO topic, its sequence number."""
        message_id = str(uuid.uuid4())
        now = datetime.now(UTC)
        sequence = None
        if message.group is not None:  # FIFO: one sequence number per published message
            with self._lock:
                self._sequence += 1
                sequence = f"{self._sequence:020d}"
        for subscription in self.subscriptions(message.topic):
            outcome, reason, queued = self._deliver(message, message_id, subscription, now,
                                                    sequence)
            self.recorder.record("sns", "delivery", **bounded({
                "message_id": message_id, "topic": message.topic,
                "subscription": subscription.arn, "endpoint": subscription.endpoint,
                "outcome": outcome, "reason": reason, "queue_message_id": queued,
                "key": self.key_of(message.body_for(subscription.protocol))}))
        return message_id, sequence

    def subscriptions(self, topic: str) -> list[Subscription]:
        """The topic's subscriptions with their delivery attributes, from the emulator."""
        sns = self._client("sns")
        out = []
        for item in aws.topic_subscriptions(sns, topic):
            arn = item["SubscriptionArn"]
            if not arn.startswith("arn:"):  # PendingConfirmation: nothing is delivered
                continue
            attrs = sns.get_subscription_attributes(SubscriptionArn=arn)["Attributes"]
            policy = attrs.get("FilterPolicy")
            out.append(Subscription(arn, item["Protocol"], item["Endpoint"],
                                    attrs.get("RawMessageDelivery") == "true",
                                    json.loads(policy) if policy else None,
                                    attrs.get("FilterPolicyScope") or "MessageAttributes"))
        return out

    def _deliver(self, message: Message, message_id: str, subscription: Subscription,
                 now: datetime, sequence: str | None) -> tuple[str, str, str | None]:
        """(outcome, reason, the queue's message id) of one delivery."""
        if subscription.protocol != "sqs":
            return "skipped", f"the kit delivers to sqs subscriptions only, not " \
                f"{subscription.protocol}", None
        if not subscription.accepts(message):
            return "filtered", f"dropped by the filter policy ({subscription.scope}) of " \
                f"{subscription.arn}: {json.dumps(subscription.filter_policy)}", None
        queue = self.store.queue(subscription.endpoint)
        if not queue.exists:
            return "failed", f"the queue {subscription.endpoint} does not exist", None
        decision = service_decision("sqs:SendMessage", queue, message.topic)
        if not decision.allowed:
            return "refused", f"refused by the queue policy of {subscription.endpoint}: " \
                f"{decision.reason} (sns.amazonaws.com needs sqs:SendMessage with " \
                f"aws:SourceArn {message.topic})", None
        if queue.kms_key is None and self._key_ref(subscription.endpoint):
            return "refused", f"the queue {subscription.endpoint} is encrypted with " \
                f"{self._key_ref(subscription.endpoint)}, not a customer managed key: SNS " \
                "can use only a customer managed key whose key policy lets it", None
        if queue.kms_key is not None:
            key = self.store.key(queue.kms_key)
            for action in ("kms:GenerateDataKey", "kms:Decrypt"):
                decision = service_decision(action, key, message.topic)
                if not decision.allowed:
                    return "refused", f"refused by the key policy of {queue.kms_key} (the " \
                        f"queue's key): {decision.reason}", None
        return self._send(message, message_id, subscription, now, sequence)

    def _key_ref(self, queue_arn: str) -> str | None:
        """The KMS key a queue names for SSE-KMS (id, ARN or alias), None for none."""
        _, _, _, _, owner, name = queue_arn.split(":", 5)
        attrs = self._client("sqs").get_queue_attributes(
            QueueUrl=f"{self.sqs_url}/{owner}/{name}",
            AttributeNames=["KmsMasterKeyId"]).get("Attributes", {})
        return attrs.get("KmsMasterKeyId") or None

    def _send(self, message: Message, message_id: str, subscription: Subscription,
              now: datetime, sequence: str | None) -> tuple[str, str, str | None]:
        """Put the delivery on the queue (kit credentials, straight to the emulator)."""
        _, _, _, _, owner, name = subscription.endpoint.split(":", 5)
        request: dict[str, Any] = {"QueueUrl": f"{self.sqs_url}/{owner}/{name}"}
        if subscription.raw:
            request["MessageBody"] = message.body_for("sqs")
            if message.attributes:
                request["MessageAttributes"] = message.sqs_attributes()
        else:
            request["MessageBody"] = envelope(message, message_id, subscription, now,
                                              sequence)
        if name.endswith(".fifo"):
            request["MessageGroupId"] = message.group or "default"
            request["MessageDeduplicationId"] = message.dedup or message_id
        try:
            sent = self._client("sqs").send_message(**request)
        except ClientError as exc:
            error = exc.response.get("Error", {})
            return "failed", f"the queue refused it: {error.get('Code')}: " \
                f"{error.get('Message')}", None
        return "delivered", "", sent["MessageId"]


def _reply(operation: str, result: str) -> replies.Reply:
    """A query-protocol success reply of SNS."""
    request_id = str(uuid.uuid4())
    xml = (f'<{operation}Response xmlns="{XMLNS}"><{operation}Result>{result}'
           f"</{operation}Result><ResponseMetadata><RequestId>{request_id}</RequestId>"
           f"</ResponseMetadata></{operation}Response>")
    return 200, {"Content-Type": "text/xml", "x-amzn-RequestId": request_id}, xml.encode()
