"""EventBridge rule -> SQS delivery by the kit's bus, against a real moto, as AWS documents it
(issue 26, gap 2: entry paths that are never used).

EventBridge user guide, "Using resource-based policies for Amazon EventBridge", section
"Amazon SQS permissions": for a rule to deliver to a queue, the queue policy must allow
`events.amazonaws.com` `sqs:SendMessage`, and the guide's example limits it to the rule
with `"Condition": {"ArnEquals": {"aws:SourceArn": <rule ARN>}}`. Without it the
invocation fails and the event is not delivered ("Amazon EventBridge troubleshooting":
"My rule is being triggered but my target isn't invoked" -> check the target's resource
policy; such events count as FailedInvocations). moto delivers regardless, which the first
test pins: the kit decides delivery with its own evaluator.

The rule, its target and the queue policy are set in the emulator (as Terraform and the
platform set them); the events are put through the gateway's bus (kit/gateway/events.py),
which reads them back, authorizes and delivers.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kit import aws
from kit.gateway.server import Gateway
from kit.workload.api import Send
from kit.workload.producer import Target
from tests.conftest import ROOT
from tests.integration import iam_env
from tests.integration.iam_env import Env, allow, doc

KIT = [sys.executable, "-m", "kit.cli"]
DETAIL_TYPE = "JobSubmitted"
JOB = {"job_id": "j-1", "scene": "s-1", "frames": 3}


@pytest.fixture(scope="module")
def env() -> Iterator[Env]:
    yield from iam_env.sandbox_env()


@pytest.fixture
def gw(env: Env) -> Iterator[Gateway]:
    yield from iam_env.gateway(env)


def _rule(env: Env, source: str = "") -> str:
    """A rule on the default bus for JobSubmitted events of `source` (by default the
    rule's own: the module's tests share one emulator, and each rule matches its own)."""
    name = f"jobs-{next(iam_env.names)}"
    return aws.client("events", env.moto).put_rule(Name=name, EventPattern=json.dumps({
        "source": [source or name], "detail-type": [DETAIL_TYPE]}))["RuleArn"]


def _source(rule: str) -> str:
    return rule.rsplit("/", 1)[1]


def _policy(env: Env, gw: Gateway, url: str, policy: str) -> None:
    """Set the queue's policy (as Terraform does) and make the gateway read it afresh."""
    aws.client("sqs", env.moto).set_queue_attributes(QueueUrl=url,
                                                     Attributes={"Policy": policy})
    gw.invalidate()


def _queue(env: Env, rule: str) -> tuple[str, str]:
    """A queue the rule targets (InputPath $.detail, as the kit points a rule), with no
    policy."""
    url, arn = iam_env.queue(env)
    aws.client("events", env.moto).put_targets(
        Rule=rule.rsplit("/", 1)[1], Targets=[{"Id": "t", "Arn": arn, "InputPath": "$.detail"}])
    return url, arn


def _grant(queue_arn: str, source_arn: str | None) -> str:
    """The queue policy of the EventBridge user guide's example, for the rule `source_arn`
    (None: without the condition)."""
    condition = {"Condition": {"ArnEquals": {"aws:SourceArn": source_arn}}} \
        if source_arn else {}
    return doc(allow("sqs:SendMessage", queue_arn,
                     Principal={"Service": "events.amazonaws.com"}, **condition))


def _put(gw: Gateway, rule: str) -> str:
    """Put one job as the producer does for a rule entry; its event id."""
    method, request = Target("rule", "rule.jobs", rule, {
        "Source": _source(rule), "DetailType": DETAIL_TYPE}).request(Send(json.dumps(JOB)))
    reply = getattr(gw.events, method)(**request)
    return reply["Entries"][0]["EventId"]


def _bodies(env: Env, url: str) -> list[str]:
    got = aws.client("sqs", env.moto).receive_message(QueueUrl=url, MaxNumberOfMessages=10)
    return [m["Body"] for m in got.get("Messages", [])]


def _deliveries(gw: Gateway) -> list[dict[str, Any]]:
    return [op.value.model_dump() for op in gw.recorder.snapshot() if op.kind == "delivery"]


def test_moto_delivers_to_a_queue_that_never_let_the_rule_in(env: Env) -> None:
    """Why the kit delivers itself: moto's PutEvents reaches a queue without any policy."""
    rule = _rule(env)
    url, _ = _queue(env, rule)
    aws.client("events", env.moto).put_events(Entries=[{
        "Source": _source(rule), "DetailType": DETAIL_TYPE, "Detail": json.dumps(JOB)}])
    assert len(_bodies(env, url)) == 1


def test_no_queue_policy_refuses_the_rule(env: Env, gw: Gateway) -> None:
    rule = _rule(env)
    url, arn = _queue(env, rule)
    event_id = _put(gw, rule)
    assert _bodies(env, url) == []
    delivery, = _deliveries(gw)
    assert delivery["message_id"] == event_id and delivery["rule"] == rule
    assert delivery["outcome"] == "refused" and delivery["endpoint"] == arn
    assert f"refused by the queue policy of {arn}" in delivery["reason"]
    assert f"events.amazonaws.com needs sqs:SendMessage with aws:SourceArn {rule}" \
        in delivery["reason"]


@pytest.mark.parametrize("condition", ["rule", None])
def test_the_grant_delivers_the_detail(env: Env, gw: Gateway, condition: str | None) -> None:
    """With the guide's grant (with or without its SourceArn condition) the queue gets the
    event's detail (InputPath $.detail: the job itself)."""
    rule = _rule(env)
    url, arn = _queue(env, rule)
    _policy(env, gw, url, _grant(arn, rule if condition else None))
    _put(gw, rule)
    assert [json.loads(b) for b in _bodies(env, url)] == [JOB]
    delivery, = _deliveries(gw)
    assert delivery["outcome"] == "delivered" and delivery["queue_message_id"]


def test_a_grant_to_another_rule_refuses_this_one(env: Env, gw: Gateway) -> None:
    rule, other = _rule(env), _rule(env)
    url, arn = _queue(env, rule)
    _policy(env, gw, url, _grant(arn, other))
    _put(gw, rule)
    assert _bodies(env, url) == []
    assert _deliveries(gw)[0]["outcome"] == "refused"


def test_an_event_no_rule_matches_goes_nowhere(env: Env, gw: Gateway) -> None:
    rule = _rule(env)
    url, arn = _queue(env, rule)
    _policy(env, gw, url, _grant(arn, rule))
    gw.events.put_events(Entries=[{"Source": "someone.else", "DetailType": DETAIL_TYPE,
                                   "Detail": json.dumps(JOB)}])
    assert _bodies(env, url) == [] and _deliveries(gw) == []


# -- the acceptance: a solution without the rule's grant fails -------------------------------

def test_an_iam_boundary_solution_without_the_rules_grant_fails(tmp_path: Path) -> None:
    """Issue 26's acceptance, one run of the kit: variants/iam-boundary/no-queue-policy (the
    workers' grant in their role's policy, no queue policy at all) loses every job that
    enters through the jobs rule, and delivery.no_loss names the rule, the queue and the
    missing grant (and those jobs miss the RTO); nothing else fails, no error of the kit."""
    out = tmp_path / "runs"
    done = subprocess.run([*KIT, "validate", "iam-boundary", "--only", "no-queue-policy",
                           "--jobs", "1", "--out", str(out)], capture_output=True,
                          text=True, cwd=ROOT, timeout=900)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    result, = out.glob("iam-boundary/validate-*/no-queue-policy/none-seed*/result.json")
    found = json.loads(result.read_text())
    failed = {k for k, v in found["invariants"].items() if v["verdict"] != "pass"}
    assert failed == {"delivery.no_loss", "recovery.within_rto"}, found["invariants"]
    no_loss = found["invariants"]["delivery.no_loss"]
    assert "EventBridge never delivered" in no_loss["summary"]
    (reason, keys), = no_loss["evidence"]["not_delivered_by_eventbridge"].items()
    assert "refused by the queue policy of arn:aws:sqs:us-east-1:" in reason
    assert "events.amazonaws.com needs sqs:SendMessage with aws:SourceArn " \
        "arn:aws:events:us-east-1:" in reason and ":rule/org-jobs-submitted" in reason
    assert keys
