"""iam.required_access and iam.least_privilege over crafted IAM states."""

from __future__ import annotations

from typing import Any

from kit.checks import run_checks
from kit.workload.iam_state import DECOYS

from .builder import (
    ACCOUNT,
    ARN,
    HARNESS,
    IAM_PARAMS,
    WORKER_ACTIONS,
    allow,
    healthy_run,
    resolved,
    trust,
)


def _verdicts(iam: dict[str, Any]) -> dict[str, Any]:
    run = healthy_run(seed=3)
    run.final["iam"] = iam
    return run_checks(run.build(), resolved(IAM_PARAMS))


def _healthy() -> dict[str, Any]:
    run = healthy_run(seed=3)
    return run.final["iam"]


def test_tight_roles_pass_both() -> None:
    results = _verdicts(_healthy())
    assert {k: r.verdict for k, r in results.items()} == {
        "iam.required_access": "pass", "iam.least_privilege": "pass"}


def test_sqs_star_on_star_is_flagged_with_the_exact_pairs_and_statement() -> None:
    iam = _healthy()
    iam["roles"]["worker"]["policies"] = {"all": allow("sqs:*", "*")}
    result = _verdicts(iam)["iam.least_privilege"]
    assert result.verdict == "fail"
    pairs = {(m["action"], m["resource"]) for m in result.evidence["over_granted"]["members"]}
    total = result.evidence["over_granted"]["count"]
    assert ("sqs:PurgeQueue", "queue") in pairs or total > 20
    members = result.evidence["over_granted"]["members"]
    assert all(m["granted_by"] == ["identity policy 'all' Statement[0]"] for m in members)
    # Allowed pairs are not reported; the required ones still pass.
    assert ("sqs:ReceiveMessage", "queue") not in pairs
    assert _verdicts(iam)["iam.required_access"].verdict == "pass"


def test_wildcard_resource_reaches_the_decoy_queue() -> None:
    iam = _healthy()
    iam["roles"]["worker"]["policies"] = {"consume": allow(WORKER_ACTIONS, "*")}
    result = _verdicts(iam)["iam.least_privilege"]
    assert result.verdict == "fail"
    assert result.evidence["over_granted"]["count"] == 6  # 3 actions x (dlq, decoy_queue)
    assert {m["resource"] for m in result.evidence["over_granted"]["members"]} == {
        "dlq", "decoy_queue"}


def test_publish_to_every_topic_reaches_the_decoy_topic() -> None:
    # sns:Publish on Resource "*" touches no other declared resource: only a topic the
    # solution never mentions shows the over-grant (found by kit mutate on outbox-fanout).
    topic = f"arn:aws:sns:us-east-1:{ACCOUNT}:order-events"
    iam = _healthy()
    iam["resources"] |= {"topic": topic, "decoy_topic": DECOYS["decoy_topic"]}
    params = {"iam.least_privilege": {
        "services": ["sqs", "sns"],
        "roles": {**IAM_PARAMS["iam.least_privilege"]["roles"],
                  "worker": [*IAM_PARAMS["iam.least_privilege"]["roles"]["worker"],
                             ["sns:Publish", "topic"]]}}}
    iam["roles"]["worker"]["policies"]["publish"] = allow("sns:Publish", topic)
    run = healthy_run(seed=3)
    run.final["iam"] = iam
    assert run_checks(run.build(), resolved(params))["iam.least_privilege"].verdict == "pass"
    iam["roles"]["worker"]["policies"]["publish"] = allow("sns:Publish", "*")
    result = run_checks(run.build(), resolved(params))["iam.least_privilege"]
    assert result.verdict == "fail"
    assert [(m["action"], m["resource"]) for m in result.evidence["over_granted"]["members"]
            ] == [("sns:Publish", "decoy_topic")]


def test_producer_that_can_purge_is_flagged() -> None:
    iam = _healthy()
    iam["roles"]["producer"]["policies"]["extra"] = allow("sqs:PurgeQueue", ARN["queue"])
    result = _verdicts(iam)["iam.least_privilege"]
    assert result.verdict == "fail"
    assert [(m["role"], m["action"]) for m in result.evidence["over_granted"]["members"]] == [
        ("producer", "sqs:PurgeQueue")]


def test_explicit_deny_removes_an_over_grant() -> None:
    iam = _healthy()
    iam["roles"]["worker"]["policies"] = {
        "all": allow(WORKER_ACTIONS, "*"),
        "deny-others": {"Version": "2012-10-17", "Statement": [
            {"Effect": "Deny", "Action": "sqs:*", "NotResource": ARN["queue"]}]}}
    assert _verdicts(iam)["iam.least_privilege"].verdict == "pass"


def test_trust_open_to_anyone_is_over_trust() -> None:
    iam = _healthy()
    iam["roles"]["worker"]["trust"] = trust("*")
    result = _verdicts(iam)["iam.least_privilege"]
    assert result.verdict == "fail"
    assert {m["action"] for m in result.evidence["over_granted"]["members"]} == {
        "sts:AssumeRole"}


def test_trust_of_the_whole_account_is_over_trust() -> None:
    iam = _healthy()
    iam["roles"]["producer"]["trust"] = trust("arn:aws:iam::123456789012:root")
    result = _verdicts(iam)["iam.least_privilege"]
    assert result.verdict == "fail"
    assert "kit-someone-else" in str(result.evidence)


def test_missing_permission_fails_required_access() -> None:
    iam = _healthy()
    iam["roles"]["worker"]["policies"] = {"consume": allow(WORKER_ACTIONS[:2], ARN["queue"])}
    result = _verdicts(iam)["iam.required_access"]
    assert result.verdict == "fail"
    assert result.evidence["missing"]["members"][0]["action"] == "sqs:ChangeMessageVisibility"


def test_trust_that_excludes_the_harness_fails_required_access() -> None:
    iam = _healthy()
    iam["roles"]["worker"]["trust"] = trust("arn:aws:iam::123456789012:user/somebody")
    result = _verdicts(iam)["iam.required_access"]
    assert result.verdict == "fail"
    assert result.evidence["missing"]["members"][0]["by"] == HARNESS


def test_no_iam_state_or_no_roles_is_an_error() -> None:
    run = healthy_run(seed=3)
    run.final["iam"] = {}
    results = run_checks(run.build(), resolved(IAM_PARAMS))
    assert {r.verdict for r in results.values()} == {"error"}
    results = run_checks(healthy_run(seed=3).build(), resolved({"iam.least_privilege": {}}))
    assert results["iam.least_privilege"].verdict == "error"
