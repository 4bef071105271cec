"""EventBridge delivery as AWS does it: the kit puts the events and delivers them to the
targets of the rules they match, each delivery authorized by the queue's policy.

Why the kit and not moto: moto's PutEvents sends to an SQS target in-process (its Rule
calls the SQS backend directly), so a queue whose policy never lets the rule in still gets
every event, and moto ignores a target's InputPath. On AWS a rule delivers to a queue
only when the queue policy allows `events.amazonaws.com` `sqs:SendMessage`, usually with
aws:SourceArn = the rule's ARN (EventBridge user guide, "Using resource-based policies for
Amazon EventBridge", section "Amazon SQS permissions"); otherwise the invocation fails and
the event is dropped (counted in the rule's FailedInvocations metric, or sent to the
target's dead-letter queue when it has one). An encrypted queue also needs its key policy
to let the service use the key (same section: kms:GenerateDataKey and kms:Decrypt).

The kit:
- reads the bus's rules, their patterns and targets from the emulator (the state set by
  Terraform and by the platform stays the one source of truth);
- matches the event with moto's own pattern matcher;
- per SQS target, authorizes the delivery as the service principal with aws:SourceArn =
  the rule and aws:SourceAccount = its owner (the evaluator of kit/iam, as for SNS:
  `sns.service_decision`), then the queue's key policy;
- sends the target's input (the whole event, `Input`, or the `InputPath` of it) to the
  queue with the kit's credentials straight to the emulator.
Every target's outcome is a `delivery` op of process `events`: delivered (with the queue's
message id), refused (why), failed (the queue is gone) or skipped (a target type the kit
does not deliver to). Not delivered by the kit: non-SQS targets, InputTransformer (skipped,
saying so), retries of a failed invocation (a policy refusal is not retried by AWS either).
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from typing import Any

from kit import aws
from kit.aws import rule_parts
from kit.gateway.policies import PolicyStore
from kit.gateway.sns import service_decision
from kit.history import bounded
from kit.recorder import Recorder

SERVICE = "events.amazonaws.com"
__all__ = ["SERVICE", "EventBus", "envelope", "rule_parts", "target_input"]


def envelope(entry: Mapping[str, Any], event_id: str, account: str, region: str,
             now: datetime) -> dict[str, Any]:
    """The event EventBridge builds from a PutEvents entry (user guide, "Amazon EventBridge
    events": version, id, detail-type, source, account, time, region, resources, detail)."""
    return {"version": "0", "id": event_id, "detail-type": entry["DetailType"],
            "source": entry["Source"], "account": account,
            "time": now.strftime("%Y-%m-%dT%H:%M:%SZ"), "region": region,
            "resources": list(entry.get("Resources", [])),
            "detail": json.loads(entry.get("Detail") or "{}")}


def target_input(target: Mapping[str, Any], event: dict[str, Any]) -> str | None:
    """What the target receives: `Input` as given, the JSON at `InputPath` (`$` or `$.a.b`),
    or the whole event; None for an InputTransformer (not delivered by the kit)."""
    if "InputTransformer" in target:
        return None
    if "Input" in target:
        return str(target["Input"])
    found: Any = event
    for part in [p for p in str(target.get("InputPath") or "$").split(".")[1:] if p]:
        found = found.get(part) if isinstance(found, dict) else None
    return found if isinstance(found, str) else json.dumps(found)


class EventBus:
    """Answers the kit's PutEvents (boto3-shaped, for the producer): every event delivered
    to the targets of the rules it matches, each outcome recorded."""

    def __init__(self, client: Callable[[str], Any], store: PolicyStore, recorder: Recorder,
                 sqs_url: str, key_of: Callable[[str], str | None],
                 account: str = aws.ACCOUNT_ID, region: str = aws.REGION) -> None:
        self._client, self.store, self.recorder = client, store, recorder
        self.sqs_url, self.key_of = sqs_url.rstrip("/"), key_of
        self.account, self.region = account, region

    def put_events(self, Entries: list[Mapping[str, Any]]) -> dict[str, Any]:  # noqa: N803
        """PutEvents: an event id per entry, after its deliveries."""
        out = []
        for entry in Entries:
            event_id = str(uuid.uuid4())
            event = envelope(entry, event_id, self.account, self.region, datetime.now(UTC))
            for rule, target in self.targets(str(entry.get("EventBusName") or "default"),
                                             event):
                outcome, reason, queued = self.deliver(event, rule, target)
                self.recorder.record("events", "delivery", **bounded({
                    "message_id": event_id, "rule": rule,
                    "subscription": f"{rule} target {target.get('Id')}",
                    "endpoint": target["Arn"], "outcome": outcome, "reason": reason,
                    "queue_message_id": queued,
                    "key": self.key_of(json.dumps(event["detail"]))}))
            out.append({"EventId": event_id})
        return {"FailedEntryCount": 0, "Entries": out}

    def targets(self, bus: str, event: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
        """(rule ARN, target) of every enabled rule on `bus` whose pattern matches."""
        from moto.events.models import EventPattern  # moto's matcher; heavy, needed here only

        events = self._client("events")
        out = []
        for rule in aws.paged(events, "list_rules", "Rules", EventBusName=bus):
            if rule.get("State", "ENABLED") != "ENABLED" or not rule.get("EventPattern"):
                continue
            if not EventPattern.load(rule["EventPattern"]).matches_event(event):
                continue
            for target in aws.paged(events, "list_targets_by_rule", "Targets",
                                    Rule=rule["Name"], EventBusName=bus):
                out.append((rule["Arn"], target))
        return out

    def deliver(self, event: dict[str, Any], rule: str,
                target: Mapping[str, Any]) -> tuple[str, str, str | None]:
        """(outcome, reason, the queue's message id) of one target's invocation."""
        arn = str(target["Arn"])
        if not arn.startswith("arn:aws:sqs:"):
            return "skipped", f"the kit delivers to SQS targets only, not {arn}", None
        body = target_input(target, event)
        if body is None:
            return "skipped", "the kit does not apply an InputTransformer", None
        refused = self.refusal(arn, rule)
        if refused:
            return "refused", refused, None
        _, _, _, _, owner, name = arn.split(":", 5)
        request: dict[str, Any] = {"QueueUrl": f"{self.sqs_url}/{owner}/{name}",
                                   "MessageBody": body}
        if name.endswith(".fifo"):
            group = target.get("SqsParameters", {}).get("MessageGroupId")
            request.update(MessageGroupId=group or "default", MessageDeduplicationId=event["id"])
        try:
            sent = self._client("sqs").send_message(**request)
        except Exception as exc:  # noqa: BLE001 - a gone queue: a failed invocation on AWS
            return "failed", f"the queue refused it: {exc}"[:300], None
        return "delivered", "", sent["MessageId"]

    def refusal(self, queue_arn: str, rule: str) -> str:
        """Why the queue (its policy, then its key's) refuses the rule's delivery; ''."""
        queue = self.store.queue(queue_arn)
        if not queue.exists:
            return f"the queue {queue_arn} does not exist"
        decision = service_decision("sqs:SendMessage", queue, rule, SERVICE)
        if not decision.allowed:
            return (f"refused by the queue policy of {queue_arn}: {decision.reason} "
                    f"({SERVICE} needs sqs:SendMessage with aws:SourceArn {rule})")
        if queue.kms_key is not None:
            key = self.store.key(queue.kms_key)
            for action in ("kms:GenerateDataKey", "kms:Decrypt"):
                decision = service_decision(action, key, rule, SERVICE)
                if not decision.allowed:
                    return (f"refused by the key policy of {queue.kms_key} (the queue's "
                            f"key): {decision.reason}")
        return ""
