"""Entry through an EventBridge rule, without services (issue 26, gap 2): the scenario
fields, the producer's PutEvents, the event and the input a target gets, the queue policy a
rule's delivery needs, and the checkers' reading of the bus's `delivery` ops."""

from __future__ import annotations

import json
import shutil
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
import yaml

from kit import scenario
from kit.checks.delivery import check_no_loss
from kit.checks.workers import check_workers_start
from kit.errors import InputError
from kit.gateway.events import SERVICE, envelope, rule_parts, target_input
from kit.gateway.policies import Resource
from kit.gateway.sns import service_decision
from kit.history import FinalState, History, parse_op
from kit.iam import parse_policy
from kit.workload.api import Send
from kit.workload.producer import Producer, Target, message_id

ACCT = "123456789012"
RULE = f"arn:aws:events:us-east-1:{ACCT}:rule/org-jobs-submitted"
QUEUE = f"arn:aws:sqs:us-east-1:{ACCT}:render-jobs"
IAM_BOUNDARY = scenario.SCENARIOS / "iam-boundary" / "scenario.yaml"


# -- scenario.yaml: workload.producer.rule ---------------------------------------------------

def test_iam_boundary_enters_through_its_rule_and_the_producer_role() -> None:
    loaded = scenario.load(IAM_BOUNDARY)
    producer = loaded.workload.producer
    assert producer is not None and producer.rule == "rule.jobs" and producer.direct
    assert (producer.queue, producer.source, producer.detail_type) == (
        "queue.jobs", "org.ingest", "JobSubmitted")
    assert "events" in loaded.aws_services


def _load(tmp_path: Path, producer: dict[str, Any]) -> scenario.Scenario:
    data = yaml.safe_load(IAM_BOUNDARY.read_text())
    data["workload"]["producer"] = producer
    (tmp_path / "scenario.yaml").write_text(yaml.safe_dump(data))
    shutil.copy(IAM_BOUNDARY.with_name("workload.py"), tmp_path)
    return scenario.load(tmp_path / "scenario.yaml")


BASE = {"role": "role.producer", "queue": "queue.jobs", "source": "org.ingest",
        "detail_type": "JobSubmitted"}


@pytest.mark.parametrize("producer, field", [
    ({**BASE, "rule": "rule.jobs", "source": ""}, "rule needs queue"),
    ({**BASE, "rule": "rule.jobs", "detail_type": ""}, "rule needs queue"),
    ({**BASE, "direct": True}, "direct (every other message straight to the queue) needs "
     "rule"),
    ({**BASE, "rule": "queue.jobs"}, "workload.producer.rule: 'queue.jobs' is not a declared "
     "rule"),
    ({**BASE, "rule": "rule.nope"}, "workload.producer.rule: 'rule.nope' is not a declared "
     "rule"),
])
def test_a_bad_rule_entry_names_the_file_and_field(tmp_path: Path, producer: dict[str, Any],
                                                   field: str) -> None:
    with pytest.raises(InputError) as caught:
        _load(tmp_path, producer)
    assert str(tmp_path / "scenario.yaml") in str(caught.value)
    assert field in str(caught.value)


# -- the producer ------------------------------------------------------------------------------

def test_a_rule_entry_puts_the_body_as_the_events_detail() -> None:
    body = json.dumps({"job_id": "j-1", "scene": "s", "frames": 2})
    method, request = Target("rule", "rule.jobs", RULE, {
        "Source": "org.ingest", "DetailType": "JobSubmitted"}).request(Send(body))
    assert method == "put_events"
    assert request == {"Entries": [{"Source": "org.ingest", "DetailType": "JobSubmitted",
                                    "Detail": body, "EventBusName": "default"}]}


def test_rule_arns_name_their_bus() -> None:
    assert rule_parts(RULE) == ("default", "org-jobs-submitted")
    assert rule_parts(f"arn:aws:events:us-east-1:{ACCT}:rule/ingest/jobs") == ("ingest", "jobs")


def test_a_reply_gives_the_sends_id_or_the_entrys_error() -> None:
    assert message_id({"MessageId": "m-1"}) == "m-1"
    assert message_id({"FailedEntryCount": 0, "Entries": [{"EventId": "e-1"}]}) == "e-1"
    with pytest.raises(ValueError, match="InternalFailure: boom"):
        message_id({"FailedEntryCount": 1, "Entries": [{"ErrorCode": "InternalFailure",
                                                         "ErrorMessage": "boom"}]})


class _Client:
    """Records which entry each send took."""

    def __init__(self, name: str, seen: list[str]) -> None:
        self.name, self.seen = name, seen

    def send_message(self, **_: Any) -> dict[str, Any]:
        self.seen.append(self.name)
        return {"MessageId": f"m-{len(self.seen)}"}

    put_events = send_message


def test_with_direct_every_other_send_goes_straight_to_the_queue() -> None:
    from kit.recorder import Recorder
    from kit.workload.api import Described

    seen: list[str] = []
    rule = Target("rule", "rule.jobs", RULE, {"Source": "s", "DetailType": "d"})
    queue = Target("queue", "queue.jobs", "http://q/1/render-jobs")
    recorder = Recorder()
    producer = Producer(_Client("bus", seen), rule, [Send(f"b{i}") for i in range(5)],
                        lambda body: Described(body, {}, True), 0, recorder,
                        (_Client("sqs", seen), queue))
    producer.run()
    assert producer.error is None and seen == ["sqs", "bus", "sqs", "bus", "sqs"]
    sends = [op.value for op in recorder.snapshot() if op.kind == "send"]
    assert [(v.queue, v.rule) for v in sends[:2]] == [("queue.jobs", None), (None, "rule.jobs")]


# -- the event and what a target gets --------------------------------------------------------

ENTRY = {"Source": "org.ingest", "DetailType": "JobSubmitted", "Detail": '{"job_id": "j-1"}'}


def test_the_event_has_the_documented_fields() -> None:
    """EventBridge user guide, "Amazon EventBridge events": the top-level fields."""
    event = envelope(ENTRY, "e-1", ACCT, "us-east-1", datetime(2026, 12, 1, 9, 8, 7, tzinfo=UTC))
    assert event == {"version": "0", "id": "e-1", "detail-type": "JobSubmitted",
                     "source": "org.ingest", "account": ACCT, "time": "2026-12-01T09:08:07Z",
                     "region": "us-east-1", "resources": [], "detail": {"job_id": "j-1"}}


@pytest.mark.parametrize("target, expected", [
    ({"InputPath": "$.detail"}, '{"job_id": "j-1"}'),
    ({"InputPath": "$.detail.job_id"}, "j-1"),  # a string is delivered as it is
    ({"Input": '{"static": true}'}, '{"static": true}'),
    ({"InputTransformer": {"InputTemplate": "<x>"}}, None),
])
def test_a_target_gets_its_input(target: dict[str, Any], expected: str | None) -> None:
    """EventBridge API reference, Target: Input (constant JSON), InputPath (a JSONPath of the
    event), or, with neither, the whole event."""
    event = envelope(ENTRY, "e-1", ACCT, "us-east-1", datetime.now(UTC))
    assert target_input(target, event) == expected
    assert json.loads(target_input({}, event) or "")["id"] == "e-1"


# -- the queue policy a rule's delivery needs --------------------------------------------------

def _queue(statements: list[dict[str, Any]] | None) -> Resource:
    if statements is None:
        return Resource(QUEUE)
    return Resource(QUEUE, parse_policy({"Version": "2012-10-17", "Statement": statements}))


GRANT = {"Effect": "Allow", "Principal": {"Service": SERVICE}, "Action": "sqs:SendMessage",
         "Resource": QUEUE, "Condition": {"ArnEquals": {"aws:SourceArn": RULE}}}


# EventBridge user guide, "Using resource-based policies for Amazon EventBridge", "Amazon SQS
# permissions": the queue policy allows events.amazonaws.com sqs:SendMessage, its example
# with aws:SourceArn = the rule.
@pytest.mark.parametrize("statements, allowed", [
    ([GRANT], True),
    (None, False),  # no queue policy: no identity policy can grant a service principal
    ([{**GRANT, "Condition": {"ArnEquals": {"aws:SourceArn": RULE + "-other"}}}], False),
    ([{**GRANT, "Condition": {"ArnLike": {"aws:SourceArn": f"arn:aws:events:*:{ACCT}:rule/*"}}}],
     True),
    ([{**GRANT, "Condition": {"StringEquals": {"aws:SourceAccount": ACCT}}}], True),
    ([{k: v for k, v in GRANT.items() if k != "Condition"}], True),
    ([{**GRANT, "Principal": {"Service": "sns.amazonaws.com"}}], False),
    ([{**GRANT, "Principal": {"AWS": f"arn:aws:iam::{ACCT}:root"}}], False),
    ([{**GRANT, "Principal": {"Service": [SERVICE]}}], True),
    ([GRANT, {**GRANT, "Effect": "Deny", "Principal": "*", "Condition": {
        "Bool": {"aws:SecureTransport": "false"}}}], True),  # EventBridge delivers over TLS
    ([GRANT, {**GRANT, "Effect": "Deny"}], False),
])
def test_a_rule_may_send_to_a_queue_only_as_its_policy_says(
        statements: list[dict[str, Any]] | None, allowed: bool) -> None:
    decision = service_decision("sqs:SendMessage", _queue(statements), RULE, SERVICE)
    assert decision.allowed is allowed


# -- the checkers read the bus's `delivery` ops ----------------------------------------------

def _history(outcome: str, reason: str = "", received: bool = False) -> History:
    body = json.dumps({"job_id": "j-1", "scene": "s", "frames": 2})
    ops: list[dict[str, Any]] = [
        {"process": "kit", "kind": "worker_start", "value": {"worker": "worker-0", "pid": 1}},
        {"process": "producer", "kind": "send", "value": {
            "message_id": "e-1", "duplicate_of": None, "body": body, "key": "j-1",
            "fields": {"job_id": "j-1"}, "valid": True, "rule": "rule.jobs"}},
        {"process": "events", "kind": "delivery", "value": {
            "message_id": "e-1", "rule": RULE, "subscription": f"{RULE} target t",
            "endpoint": QUEUE, "outcome": outcome, "reason": reason, "key": "j-1",
            "queue_message_id": "sqs-1" if outcome == "delivered" else None}}]
    if received:
        ops.append({"process": "worker-0", "kind": "receive", "value": {
            "message_id": "sqs-1", "key": "j-1", "receive_count": 1}})
    return History(ops=tuple(parse_op({"index": n, "time": float(n), **op})
                             for n, op in enumerate(ops)), final=FinalState(effects=[]))


def test_no_loss_says_the_rule_never_delivered_a_lost_job() -> None:
    reason = (f"refused by the queue policy of {QUEUE}: no statement allows it "
              f"(events.amazonaws.com needs sqs:SendMessage with aws:SourceArn {RULE})")
    result = check_no_loss(_history("refused", reason), {})
    assert result.verdict == "fail"
    assert f"EventBridge never delivered 1 of them to a queue: {reason}" in result.summary
    assert result.evidence["not_delivered_by_eventbridge"] == {reason: ["j-1"]}
    trail = result.evidence["lost"]["example"]["trail"]
    assert trail[0]["outcome"] == "refused" and trail[0]["subscription"] == f"{RULE} target t"


def test_workers_are_not_blamed_for_what_the_rule_never_delivered() -> None:
    assert check_workers_start(_history("refused", "no grant"), {}).verdict == "pass"
    assert check_workers_start(_history("delivered"), {}).verdict == "fail"
    assert check_workers_start(_history("delivered", received=True), {}).verdict == "pass"
