"""SNS messages as the kit's fan-out holds them (kit/gateway/sns.py): a Publish read from
its query parameters, a subscription's filter policy, the JSON envelope a subscription
without raw delivery gets."""

from __future__ import annotations

import base64
import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from moto.sns.utils import FilterPolicyMatcher

MAX_BYTES = 256 * 1024  # SNS: a message (body and attributes) is at most 256 KiB


class PublishError(Exception):
    """A publish SNS refuses (InvalidParameter, NotFound ...): its code, text and status."""

    def __init__(self, code: str, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.code, self.message, self.status = code, message, status


@dataclass(frozen=True, slots=True)
class Message:
    """One published message as SNS holds it."""

    topic: str
    body: str
    subject: str | None = None
    # SNS's own form, as filter policies and the envelope see them: name -> Type, Value.
    attributes: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    group: str | None = None
    dedup: str | None = None
    structure: str | None = None

    def body_for(self, protocol: str) -> str:
        """The body a subscription of `protocol` gets (MessageStructure json: its key, or
        "default")."""
        if self.structure != "json":
            return self.body
        parsed = json.loads(self.body)
        return str(parsed.get(protocol, parsed["default"]))

    def sqs_attributes(self) -> dict[str, dict[str, Any]]:
        """The attributes as SQS message attributes (raw delivery)."""
        out: dict[str, dict[str, Any]] = {}
        for name, attr in self.attributes.items():
            if attr["Type"].startswith("Binary"):
                out[name] = {"DataType": attr["Type"],
                             "BinaryValue": base64.b64decode(attr["Value"])}
            else:
                out[name] = {"DataType": attr["Type"], "StringValue": attr["Value"]}
        return out


# What moto's matcher raises where a rule does not fit a value's type (a prefix rule on a
# number, a numeric rule on a string or an object, a body that is a JSON array).
_MISFITS = (TypeError, ValueError, AttributeError, OverflowError, KeyError,
            FilterPolicyMatcher.CheckException)


def _rule_matches(field_name: str, rule: Any, values: dict[str, Any], attributes: bool) -> bool:
    """One rule of a key: a rule that does not fit the value's type does not match it (SNS
    developer guide, "Amazon SNS message filtering": a message matches a key when any of its
    rules matches), where moto's matcher raises instead."""
    try:
        return bool(FilterPolicyMatcher._field_match(field_name, [rule], values, attributes))
    except _MISFITS:
        return False


class TolerantMatcher(FilterPolicyMatcher):
    """moto's filter policy matcher, rule by rule: never raises on what a message holds."""

    def matches(self, message_attributes: dict[str, Any] | None, message: str) -> bool:
        """Whether the message passes the policy (AND across keys, OR across a key's rules)."""
        if not self.filter_policy:
            return True
        if self.filter_policy_scope == "MessageAttributes":
            attrs = message_attributes or {}
            return all(any(_rule_matches(key, rule, attrs, True) for rule in rules)
                       for key, rules in self.filter_policy.items())
        try:
            body = json.loads(message)
            return isinstance(body, dict) and self._body_based_match(body)
        except _MISFITS:
            return False  # not a JSON object: a body policy matches nothing in it

    def _perform_body_checks(self, check: Any) -> bool:
        if isinstance(check, tuple) and len(check) == 3:
            field_name, rules, values = check
            return isinstance(values, dict) and any(
                _rule_matches(field_name, rule, values, False) for rule in rules)
        if isinstance(check, tuple) and len(check) == 2:
            aggregate, checks = check
            return bool(aggregate(self._perform_body_checks(c) for c in checks))
        return False


@dataclass(frozen=True, slots=True)
class Subscription:
    """One subscription of a topic, as the emulator holds it."""

    arn: str
    protocol: str
    endpoint: str
    raw: bool = False
    filter_policy: Mapping[str, Any] | None = None
    scope: str = "MessageAttributes"

    def accepts(self, message: Message) -> bool:
        """Say whether its filter policy lets the message through (no policy: every one)."""
        if not self.filter_policy:
            return True
        matcher = TolerantMatcher(dict(self.filter_policy), self.scope)
        return matcher.matches(dict(message.attributes), message.body_for(self.protocol))


def parse_attributes(params: Mapping[str, str], prefix: str) -> dict[str, dict[str, str]]:
    """`<prefix>.entry.N.Name/Value.DataType/Value.StringValue|BinaryValue` (query form) as
    SNS's Type/Value form; PublishError for a malformed one, as SNS refuses it."""
    out: dict[str, dict[str, str]] = {}
    names = {k[len(prefix):].split(".")[2]: v for k, v in params.items()
             if k.startswith(f"{prefix}.entry.") and k.endswith(".Name")}
    for n, name in sorted(names.items()):
        base = f"{prefix}.entry.{n}.Value"
        data_type = params.get(f"{base}.DataType", "")
        value = params.get(f"{base}.StringValue", params.get(f"{base}.BinaryValue", ""))
        if data_type.split(".")[0] not in ("String", "Number", "Binary") or value == "":
            raise PublishError("ParameterValueInvalid", f"The message attribute '{name}' "
                               "must have a DataType of String, Number or Binary and a "
                               "non-empty value.")
        if data_type.startswith("Number"):
            try:
                float(value)
            except ValueError:
                raise PublishError("ParameterValueInvalid", "Could not cast message "
                                   f"attribute '{name}' value to number.") from None
        out[name] = {"Type": data_type, "Value": value}
    return out


def parse_message(params: Mapping[str, str], topic: str, prefix: str = "") -> Message:
    """The message of a Publish (or of one PublishBatch entry, `prefix` its key)."""
    body = params.get(f"{prefix}Message")
    if body is None or body == "":
        raise PublishError("InvalidParameter", "Invalid parameter: Empty message")
    message = Message(topic, body, params.get(f"{prefix}Subject"),
                      parse_attributes(params, f"{prefix}MessageAttributes"),
                      params.get(f"{prefix}MessageGroupId"),
                      params.get(f"{prefix}MessageDeduplicationId"),
                      params.get(f"{prefix}MessageStructure"))
    size = len(body.encode()) + sum(len(k) + len(v["Type"]) + len(v["Value"])
                                    for k, v in message.attributes.items())
    if size > MAX_BYTES:
        raise PublishError("InvalidParameter", "Invalid parameter: Message too long")
    if message.structure == "json":
        try:
            parsed = json.loads(body)
        except ValueError:
            parsed = None
        if not isinstance(parsed, dict) or "default" not in parsed:
            raise PublishError("InvalidParameter", "Invalid parameter: Message Structure - "
                               "No default entry in JSON message body")
    return message


def envelope(message: Message, message_id: str, subscription: Subscription,
             timestamp: datetime, sequence: str | None = None) -> str:
    """The JSON notification SNS delivers to a subscription without raw delivery, fields in
    the documented order (SNS developer guide, "HTTP/HTTPS notification JSON format")."""
    region = message.topic.split(":")[3]
    doc: dict[str, Any] = {"Type": "Notification", "MessageId": message_id}
    if sequence is not None:
        doc["SequenceNumber"] = sequence
    doc["TopicArn"] = message.topic
    if message.subject:
        doc["Subject"] = message.subject
    doc.update({
        "Message": message.body_for(subscription.protocol),
        "Timestamp": timestamp.strftime("%Y-%m-%dT%H:%M:%S.") +
        f"{timestamp.microsecond // 1000:03d}Z",
        "SignatureVersion": "1",
        # Not a verifiable signature: the certificate URL cannot be reached offline.
        "Signature": base64.b64encode(hashlib.sha256(message_id.encode()).digest()).decode(),
        "SigningCertURL": f"https://sns.{region}.amazonaws.com/"
                          "SimpleNotificationService-kit.pem",
        "UnsubscribeURL": f"https://sns.{region}.amazonaws.com/?Action=Unsubscribe&"
                          f"SubscriptionArn={subscription.arn}",
    })
    if message.attributes:
        doc["MessageAttributes"] = {k: {"Type": v["Type"], "Value": v["Value"]}
                                    for k, v in message.attributes.items()}
    return json.dumps(doc)
