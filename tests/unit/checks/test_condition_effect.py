"""iam.least_privilege, iam.required_access and iam.resource_exposure judge a condition by
its effect over the run's requests: a statement whose conditions every request meets is
unconditional, one that some request fails stays conditional.

The keys and values are the gateway's (kit/gateway/authz.py, after the IAM User Guide, "AWS
global condition context keys",
https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_condition-keys.html):
aws:CurrentTime / aws:EpochTime its clock, aws:SourceIp the loopback address the call came
from, aws:SecureTransport true, aws:PrincipalTag/* the caller's tags.
"""

from __future__ import annotations

from typing import Any

import pytest

from kit.checks import run_checks

from .builder import ARN, IAM_PARAMS, allow, healthy_run, resolved
from .iam_fixtures import document, iam_state, statement

LEAST, REQUIRED, EXPOSURE = "iam.least_privilege", "iam.required_access", \
    "iam.resource_exposure"
SINCE = 1_790_000_000  # the run's window: a quarter of an hour from here
UNTIL = SINCE + 900

ALWAYS = {
    "time": {"DateGreaterThan": {"aws:CurrentTime": "2000-01-01T00:00:00Z"}},
    "time-until-later": {"DateLessThan": {"aws:CurrentTime": "2100-01-01T00:00:00Z"}},
    "epoch": {"NumericGreaterThan": {"aws:EpochTime": "946684800"}},
    "address": {"IpAddress": {"aws:SourceIp": "0.0.0.0/0"}},
    "loopback": {"IpAddress": {"aws:SourceIp": "127.0.0.0/8"}},
    "not-an-office": {"NotIpAddress": {"aws:SourceIp": "203.0.113.0/24"}},
    "transport": {"Bool": {"aws:SecureTransport": "true"}},
    "tag-if-exists": {"StringLikeIfExists": {"aws:PrincipalTag/team": "*"}},
    "any-session": {"StringLike": {"aws:userid": "*"}},
    # the gateway sets aws:TokenIssueTime: a role session is issued during the run
    "token-issued": {"DateGreaterThan": {"aws:TokenIssueTime": "2000-01-01T00:00:00Z"}},
}
RESTRICTING = {
    "time-ahead": {"DateGreaterThan": {"aws:CurrentTime": "2100-01-01T00:00:00Z"}},
    "time-past": {"DateLessThan": {"aws:CurrentTime": "2000-01-01T00:00:00Z"}},
    "time-in-the-run": {"NumericGreaterThan": {"aws:EpochTime": str(SINCE + 60)}},
    "office": {"IpAddress": {"aws:SourceIp": "203.0.113.0/24"}},
    "one-loopback-address": {"NotIpAddress": {"aws:SourceIp": "127.0.0.1/32"}},
    "plain-http": {"Bool": {"aws:SecureTransport": "false"}},
    "tag": {"StringEquals": {"aws:PrincipalTag/team": "payments"}},
    "one-session": {"StringLike": {"aws:userid": "*:nightly-job"}},
    "token-issued-later": {"DateGreaterThan": {"aws:TokenIssueTime": "2100-01-01T00:00:00Z"}},
}


def _judge(iam: dict[str, Any], params: dict[str, Any] | None = None) -> dict[str, Any]:
    iam |= {"since": SINCE, "until": UNTIL}
    run = healthy_run(seed=3)
    run.final["iam"] = iam
    return run_checks(run.build(), resolved(params or IAM_PARAMS))


def _worker_may_all_sqs(condition: dict[str, Any]) -> dict[str, Any]:
    iam = iam_state()
    grant = allow("sqs:*", "*")
    grant["Statement"][0]["Condition"] = condition
    iam["roles"]["worker"]["policies"]["extra"] = grant
    return iam


@pytest.mark.parametrize("name", ALWAYS)
def test_a_grant_under_a_condition_every_request_meets_is_an_over_grant(name: str) -> None:
    result = _judge(_worker_may_all_sqs(ALWAYS[name]))[LEAST]
    assert result.verdict == "fail"
    pairs = {(m["action"], m["resource"]) for m in result.evidence["over_granted"]["members"]}
    assert ("sqs:PurgeQueue", "decoy_queue") in pairs or \
        result.evidence["over_granted"]["count"] > len(pairs)


@pytest.mark.parametrize("name", RESTRICTING)
def test_a_grant_under_a_restricting_condition_stays_conditional(name: str) -> None:
    assert _judge(_worker_may_all_sqs(RESTRICTING[name]))[LEAST].verdict == "pass"


def test_the_role_s_own_tags_decide_a_tag_condition() -> None:
    iam = _worker_may_all_sqs(RESTRICTING["tag"])
    iam["roles"]["worker"]["tags"] = {"team": "payments"}  # the gateway sets this tag
    assert _judge(iam)[LEAST].verdict == "fail"
    iam["roles"]["worker"]["tags"] = {"team": "orders"}
    assert _judge(iam)[LEAST].verdict == "pass"


def test_the_role_s_own_id_decides_a_userid_condition() -> None:
    # aws:userid of a role session is "<RoleId>:<session name>" (IAM User Guide, "AWS
    # global condition context keys"); the session name is the caller's choice.
    iam = _worker_may_all_sqs({"StringLike": {"aws:userid": "AROAWORKER0000:*"}})
    assert _judge(iam)[LEAST].verdict == "pass"  # its id is not known: any id
    iam["roles"]["worker"]["id"] = "AROAWORKER0000"
    assert _judge(iam)[LEAST].verdict == "fail"
    iam["roles"]["worker"]["id"] = "AROAOTHER00000"
    assert _judge(iam)[LEAST].verdict == "pass"


def test_a_deny_some_request_escapes_does_not_hide_a_grant() -> None:
    iam = _worker_may_all_sqs({})
    del iam["roles"]["worker"]["policies"]["extra"]["Statement"][0]["Condition"]
    deny = {"Effect": "Deny", "Action": "sqs:*", "Resource": "*",
            "Condition": RESTRICTING["time-in-the-run"]}
    iam["roles"]["worker"]["policies"]["extra"]["Statement"].append(deny)
    assert _judge(iam)[LEAST].verdict == "fail"
    deny["Condition"] = ALWAYS["time"]  # a Deny every request meets keeps it all out
    verdicts = _judge(iam)
    assert verdicts[LEAST].verdict == "pass" and verdicts[REQUIRED].verdict == "fail"


def test_a_required_grant_under_an_always_true_condition_is_granted() -> None:
    iam = iam_state()
    iam["roles"]["worker"]["policies"]["consume"]["Statement"][0]["Condition"] = \
        ALWAYS["transport"] | ALWAYS["time"]
    assert _judge(iam)[REQUIRED].verdict == "pass"
    iam["roles"]["worker"]["policies"]["consume"]["Statement"][0]["Condition"] = \
        RESTRICTING["office"]
    assert _judge(iam)[REQUIRED].verdict == "fail"


def _trust_anyone(condition: dict[str, Any]) -> dict[str, Any]:
    iam = iam_state()
    anyone = {"Effect": "Allow", "Principal": {"AWS": "*"}, "Action": "sts:AssumeRole",
              "Condition": condition}
    iam["roles"]["worker"]["trust"]["Statement"].append(anyone)
    return iam


@pytest.mark.parametrize("name", ["time", "address", "transport", "tag-if-exists"])
def test_trust_for_anyone_under_an_always_true_condition_is_over_trust(name: str) -> None:
    result = _judge(_trust_anyone(ALWAYS[name]))[LEAST]
    assert result.verdict == "fail"
    assert {m["action"] for m in result.evidence["over_granted"]["members"]} == \
        {"sts:AssumeRole"}


@pytest.mark.parametrize("name", ["time-ahead", "office", "tag"])
def test_trust_for_anyone_under_a_restricting_condition_is_not(name: str) -> None:
    verdicts = _judge(_trust_anyone(RESTRICTING[name]))
    assert verdicts[LEAST].verdict == "pass" and verdicts[REQUIRED].verdict == "pass"


def test_a_tag_condition_an_outsider_may_fail_keeps_it_out_but_not_a_deny() -> None:
    # An outsider's tags are its own: any tags, or none.
    assert _judge(_trust_anyone({"Null": {"aws:PrincipalTag/team": ["true", "false"]}})
                  )[LEAST].verdict == "fail"
    iam = _trust_anyone({})
    del iam["roles"]["worker"]["trust"]["Statement"][-1]["Condition"]
    iam["roles"]["worker"]["trust"]["Statement"].append({
        "Effect": "Deny", "Principal": {"AWS": "*"}, "Action": "sts:AssumeRole",
        "Condition": {"StringNotEquals": {"aws:PrincipalTag/team": "payments"}}})
    assert _judge(iam)[LEAST].verdict == "fail"  # an outsider tagged team=payments


def _exposed(condition: dict[str, Any]) -> str:
    iam = iam_state()
    iam["resource_policies"]["queue"] = document(statement(
        "Allow", "*", "sqs:SendMessage", ARN["queue"], Condition=condition))
    return _judge(iam, {EXPOSURE: {"resources": ["queue"]}})[EXPOSURE].verdict


@pytest.mark.parametrize("name", ["time", "epoch", "address", "transport", "tag-if-exists"])
def test_principal_star_under_an_always_true_condition_is_exposure(name: str) -> None:
    assert _exposed(ALWAYS[name]) == "fail"


@pytest.mark.parametrize("name", ["time-ahead", "office", "plain-http", "tag"])
def test_principal_star_under_a_restricting_condition_is_not(name: str) -> None:
    assert _exposed(RESTRICTING[name]) == "pass"


def test_a_tls_only_deny_keeps_passing() -> None:
    # The usual "deny unless TLS" statement denies nothing the gateway lets through.
    iam = iam_state()
    iam["resource_policies"]["queue"] = document(statement(
        "Deny", "*", "sqs:*", ARN["queue"], Condition=RESTRICTING["plain-http"]))
    verdicts = _judge(iam, {**IAM_PARAMS, EXPOSURE: {"resources": ["queue"]}})
    assert {k: r.verdict for k, r in verdicts.items()} == {
        LEAST: "pass", REQUIRED: "pass", EXPOSURE: "pass"}


def test_without_a_window_the_default_one_is_used() -> None:
    iam = _worker_may_all_sqs(ALWAYS["time"])
    run = healthy_run(seed=3)
    run.final["iam"] = iam  # a final.iam of an older kit: no since / until
    assert run_checks(run.build(), resolved(IAM_PARAMS))[LEAST].verdict == "fail"
