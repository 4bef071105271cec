"""iam.resource_exposure and iam.permissions_boundary, and what the IAM checkers ask of S3
objects and of key use through a service.

AWS: "Policy evaluation logic"
(https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_evaluation-logic.html),
"The confused deputy problem"
(https://docs.aws.amazon.com/IAM/latest/UserGuide/confused-deputy.html), "Permissions
boundaries for IAM entities"
(https://docs.aws.amazon.com/IAM/latest/UserGuide/access_policies_boundaries.html), AWS KMS
"kms:ViaService" (https://docs.aws.amazon.com/kms/latest/developerguide/conditions-kms.html).
"""

from __future__ import annotations

from typing import Any

from kit.checks import run_checks

from .builder import ACCOUNT, ARN, RESOURCE_PARAMS, encrypted, healthy_run, resolved
from .iam_fixtures import (
    DEFAULT_KEY_POLICY,
    KEY,
    KMS_PARAMS,
    WORKER_ROLE,
    document,
    grant,
    iam_state,
    statement,
    verdicts,
    with_customer_key,
)

EXPOSURE, BOUNDARY = "iam.resource_exposure", "iam.permissions_boundary"
AT_REST = "encryption.at_rest"
LEAST, REQUIRED = "iam.least_privilege", "iam.required_access"
BUCKET = "arn:aws:s3:::results"
RULE = f"arn:aws:events:us-east-1:{ACCOUNT}:rule/jobs-submitted"


def _judge(iam: dict[str, Any], params: dict[str, Any] | None = None) -> dict[str, Any]:
    run = healthy_run(seed=5)
    run.final["iam"] = iam
    return run_checks(run.build(), resolved(params or RESOURCE_PARAMS))


def _queue_policy(*statements: dict[str, Any]) -> dict[str, Any]:
    iam = iam_state()
    iam["resource_policies"]["queue"] = document(*statements)
    return iam


def test_the_healthy_state_passes_each() -> None:
    assert {k: r.verdict for k, r in _judge(encrypted(iam_state())).items()} == {
        EXPOSURE: "pass", BOUNDARY: "pass", AT_REST: "pass"}


def test_a_resource_not_under_its_key_fails_at_rest() -> None:
    result = _judge(iam_state())[AT_REST]  # the queue uses no customer managed key
    assert result.verdict == "fail"
    assert result.evidence["elsewhere"]["members"][0]["key"] == "no customer managed key"


def test_a_queue_policy_naming_the_scenario_s_roles_exposes_nothing() -> None:
    iam = _queue_policy(statement("Allow", {"AWS": WORKER_ROLE}, "sqs:ReceiveMessage",
                                  ARN["queue"]))
    assert _judge(iam)[EXPOSURE].verdict == "pass"


def test_principal_star_lets_in_every_outsider() -> None:
    result = _judge(_queue_policy(statement("Allow", "*", "sqs:SendMessage", ARN["queue"])))
    assert result[EXPOSURE].verdict == "fail"
    principals = {m["principal"] for m in result[EXPOSURE].evidence["exposed"]["members"]}
    assert principals == {"arn:aws:iam::999999999999:role/kit-outsider",
                          f"arn:aws:iam::{ACCOUNT}:role/kit-unrelated-role"}


def test_star_limited_to_the_account_still_lets_in_any_role_of_it() -> None:
    over_broad = statement("Allow", "*", "sqs:SendMessage", ARN["queue"], Condition={
        "StringEquals": {"aws:PrincipalAccount": ACCOUNT}})
    exposed = _judge(_queue_policy(over_broad))[EXPOSURE].evidence["exposed"]["members"]
    assert [m["principal"] for m in exposed] == [f"arn:aws:iam::{ACCOUNT}:role/kit-unrelated-role"]


def test_another_account_named_in_the_policy_is_exposure() -> None:
    iam = _queue_policy(statement("Allow", {"AWS": "arn:aws:iam::999999999999:root"},
                                  "sqs:ReceiveMessage", ARN["queue"]))
    assert _judge(iam)[EXPOSURE].verdict == "fail"


def test_a_service_without_a_source_condition_is_a_confused_deputy() -> None:
    bare = statement("Allow", {"Service": "events.amazonaws.com"}, "sqs:SendMessage",
                     ARN["queue"])
    result = _judge(_queue_policy(bare))[EXPOSURE]
    assert result.verdict == "fail" and "events.amazonaws.com may sqs:SendMessage" in \
        result.summary
    for condition in ({"ArnEquals": {"aws:SourceArn": RULE}},
                      {"StringEquals": {"aws:SourceAccount": ACCOUNT}}):
        assert _judge(_queue_policy({**bare, "Condition": condition}))[EXPOSURE].verdict == \
            "pass"


def test_own_sources_lets_only_the_named_source_of_the_account_in() -> None:
    # A contract that names the one rule that may deliver ("the jobs rule, and no other
    # rule of any account"): aws:SourceAccount lets every rule of the account in, only
    # aws:SourceArn keeps the others out.
    bare = statement("Allow", {"Service": "events.amazonaws.com"}, "sqs:SendMessage",
                     ARN["queue"])
    strict = {**RESOURCE_PARAMS, EXPOSURE: {"resources": ["queue"], "own_sources": True}}
    by_account = _queue_policy({**bare, "Condition": {
        "StringEquals": {"aws:SourceAccount": ACCOUNT}}})
    result = _judge(by_account, strict)[EXPOSURE]
    assert result.verdict == "fail"
    (member,) = result.evidence["exposed"]["members"]
    assert (member["principal"], member["action"]) == ("events.amazonaws.com",
                                                       "sqs:SendMessage")
    by_rule = _queue_policy({**bare, "Condition": {"ArnEquals": {"aws:SourceArn": RULE}}})
    assert _judge(by_rule, strict)[EXPOSURE].verdict == "pass"


def test_bucket_objects_are_probed_with_object_actions() -> None:
    iam = iam_state()
    iam["resources"]["bucket"] = BUCKET
    iam["resource_policies"]["bucket"] = document(statement(
        "Allow", "*", "s3:GetObject", f"{BUCKET}/*"))
    result = _judge(iam, {EXPOSURE: {"resources": ["bucket"]}})[EXPOSURE]
    assert result.verdict == "fail"
    assert {(m["resource"], m["action"]) for m in result.evidence["exposed"]["members"]} == {
        ("bucket/*", "s3:GetObject")}


def test_a_role_without_the_boundary_or_with_another_one_fails() -> None:
    iam = iam_state()
    iam["roles"]["worker"]["boundary_arn"] = None
    iam["roles"]["producer"]["boundary_arn"] = f"arn:aws:iam::{ACCOUNT}:policy/team-own"
    result = _judge(iam)[BOUNDARY]
    assert result.verdict == "fail"
    assert [(m["role"], m["problem"]) for m in result.evidence["unbounded"]["members"]] == [
        ("worker", "no permissions boundary"), ("producer", "another policy as its boundary")]


def test_object_grants_are_judged_on_an_object_of_the_bucket() -> None:
    iam = grant(iam_state(), "worker", "write", "s3:PutObject", f"{BUCKET}/*")
    iam["resources"]["bucket"] = BUCKET
    params = {REQUIRED: {"roles": {"worker": [["s3:PutObject", "bucket/*"]]}},
              LEAST: {"services": ["s3"], "roles": {"worker": [["s3:PutObject", "bucket/*"]],
                                                    "producer": []}}}
    assert {k: r.verdict for k, r in verdicts(iam, params).items()} == {
        REQUIRED: "pass", LEAST: "pass"}
    narrower = grant(iam_state(), "worker", "write", "s3:PutObject", f"{BUCKET}/other/*")
    narrower["resources"]["bucket"] = BUCKET
    assert verdicts(narrower, params)[REQUIRED].verdict == "fail"
    wider = grant(iam_state(), "worker", "write", ["s3:PutObject", "s3:ListBucket"],
                  [BUCKET, f"{BUCKET}/*"])
    wider["resources"]["bucket"] = BUCKET
    over = verdicts(wider, params)[LEAST].evidence["over_granted"]["members"]
    assert [(m["action"], m["resource"]) for m in over] == [("s3:ListBucket", "bucket")]


def test_key_use_granted_only_through_the_queue_s_service_counts() -> None:
    via = {"StringEquals": {"kms:ViaService": "sqs.us-east-1.amazonaws.com"}}
    iam = with_customer_key(iam_state(), DEFAULT_KEY_POLICY)
    iam["roles"]["worker"]["policies"]["key"] = document(
        {"Effect": "Allow", "Action": "kms:Decrypt", "Resource": KEY, "Condition": via})
    iam["roles"]["producer"]["policies"]["key"] = document(
        {"Effect": "Allow", "Action": ["kms:GenerateDataKey", "kms:Decrypt"], "Resource": KEY,
         "Condition": via})
    assert {k: r.verdict for k, r in verdicts(iam, KMS_PARAMS).items()} == {
        REQUIRED: "pass", LEAST: "pass"}
    elsewhere = {"StringEquals": {"kms:ViaService": "s3.us-east-1.amazonaws.com"}}
    iam["roles"]["worker"]["policies"]["key"]["Statement"][0]["Condition"] = elsewhere
    missing = verdicts(iam, KMS_PARAMS)[REQUIRED].evidence["missing"]["members"]
    assert [(m["role"], m["action"]) for m in missing] == [("worker", "kms:Decrypt")]
