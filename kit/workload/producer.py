"""The seeded producer: sends the scenario's plan to its queue, or publishes it to its SNS
topic, as the producer role; or puts it as events for an EventBridge rule (the kit's bus,
kit/gateway/events.py), every other message straight to the queue when the contract says
both paths enter."""

from __future__ import annotations

import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from botocore.exceptions import ClientError

from kit.aws import rule_parts
from kit.recorder import Recorder
from kit.workload.api import Described, Send


def single_send_keys(plan: list[Send], describe: Any) -> frozenset[str]:
    """Keys of the valid messages the plan sends exactly once."""
    counts: dict[str, int] = {}
    for send in plan:
        found = describe(send.body)
        if found.valid:
            counts[found.key] = counts.get(found.key, 0) + 1
    return frozenset(k for k, n in counts.items() if n == 1)


@dataclass(frozen=True)
class Target:
    """Where the producer's messages enter: a queue (sqs:SendMessage, `address` its URL), an
    SNS topic (sns:Publish, `address` its ARN, with static string message attributes) or an
    EventBridge rule (PutEvents on its bus, `address` its ARN, `attributes` the events'
    Source and DetailType)."""

    kind: str  # queue | topic | rule
    name: str  # the scenario's resource name (queue.orders, topic.events, rule.jobs)
    address: str
    attributes: Mapping[str, str] = field(default_factory=dict)

    def request(self, send: Send) -> tuple[str, dict[str, Any]]:
        """The client method and its arguments that send `send` here."""
        extra: dict[str, Any] = {}
        if send.group is not None:
            extra["MessageGroupId"] = send.group
        if send.dedup_id is not None:
            extra["MessageDeduplicationId"] = send.dedup_id
        if self.kind == "queue":
            return "send_message", {"QueueUrl": self.address, "MessageBody": send.body,
                                    **extra}
        if self.kind == "rule":
            return "put_events", {"Entries": [{
                "Source": self.attributes["Source"], "DetailType": self.attributes["DetailType"],
                "Detail": send.body, "EventBusName": rule_parts(self.address)[0]}]}
        if self.attributes:
            extra["MessageAttributes"] = {k: {"DataType": "String", "StringValue": v}
                                          for k, v in self.attributes.items()}
        return "publish", {"TopicArn": self.address, "Message": send.body, **extra}


def message_id(reply: Mapping[str, Any]) -> str:
    """The id a send's reply gives it: SQS's or SNS's MessageId, or PutEvents' EventId
    (ValueError naming the entry's error when PutEvents failed it)."""
    if "MessageId" in reply:
        return str(reply["MessageId"])
    entry = reply["Entries"][0]
    if "EventId" not in entry:
        raise ValueError(f"{entry.get('ErrorCode')}: {entry.get('ErrorMessage')}")
    return str(entry["EventId"])


class Producer(threading.Thread):
    """Sends the plan at a steady pace as the producer role; records every send.

    A send SQS (or SNS) refuses (AccessDenied from the solution's policies, a FIFO queue given no
    group, ...) is recorded as a failed `send` with the error code, and the producer goes
    on: what the solution's policies and queues do to the producer is judged, not an error
    of the kit. A send that cannot reach the gateway at all is the kit's error.
    """

    def __init__(self, client: Any, target: Target, plan: list[Send],
                 describe: Any, interval: float, recorder: Recorder,
                 direct: tuple[Any, Target] | None = None) -> None:
        super().__init__(name="producer", daemon=True)
        self.client, self.target = client, target  # an sqs or sns client, as the target
        # Where every other message goes (even sends: 0, 2, ...), when two paths enter.
        self.direct = direct
        self.plan, self.describe = plan, describe
        self.interval, self.recorder = interval, recorder
        self.stopping = threading.Event()
        self.error: Exception | None = None
        self.message_ids: list[str | None] = []

    def _send(self, send: Send, facts: Described) -> None:
        client, target = self.client, self.target
        if self.direct is not None and len(self.message_ids) % 2 == 0:
            client, target = self.direct
        method, request = target.request(send)
        extra = {k: v for k, v in (("group", send.group), ("dedup_id", send.dedup_id))
                 if v is not None}
        value = {"body": send.body, "key": facts.key, "fields": facts.fields,
                 "valid": facts.valid, target.kind: target.name, **extra}
        try:
            sent = message_id(getattr(client, method)(**request))
        except ValueError as exc:  # PutEvents failed the entry: a refused send
            self.recorder.record("producer", "send", type="fail", error=str(exc), **value)
            self.message_ids.append(None)
            return
        except ClientError as exc:
            if exc.response.get("ResponseMetadata", {}).get("HTTPStatusCode", 400) >= 500:
                raise  # the emulator or the gateway broke: the kit's error
            code = exc.response.get("Error", {}).get("Code", "error")
            self.recorder.record("producer", "send", type="fail",
                                 error=f"{code}: {exc.response.get('Error', {}).get('Message')}",
                                 **value)
            self.message_ids.append(None)
            return
        original = self.message_ids[send.duplicate_of] if send.duplicate_of is not None \
            else None
        self.recorder.record("producer", "send", message_id=sent,
                             duplicate_of=original, **value)
        self.message_ids.append(sent)

    def run(self) -> None:
        try:
            for send in self.plan:
                if self.stopping.wait(self.interval):
                    return
                self._send(send, self.describe(send.body))
        except Exception as exc:  # noqa: BLE001 - reported as a run error, never blamed
            self.error = exc
