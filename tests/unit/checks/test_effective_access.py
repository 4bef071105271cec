"""iam.least_privilege and iam.required_access judge effective permissions: resource policies
grant, boundaries cap, explicit denies anywhere win, KMS key policies gate identity policies.

AWS: "Policy evaluation logic"
(https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_evaluation-logic.html),
"Permissions boundaries for IAM entities"
(https://docs.aws.amazon.com/IAM/latest/UserGuide/access_policies_boundaries.html), AWS KMS
"Default key policy" (https://docs.aws.amazon.com/kms/latest/developerguide/key-policy-default.html).
"""

from __future__ import annotations

from kit import scenario

from .builder import ARN, WORKER_ACTIONS
from .iam_fixtures import (
    CONSUMER_KEY_USE,
    DEFAULT_KEY_POLICY,
    KEY,
    KMS_PARAMS,
    PRODUCER_KEY_USE,
    PRODUCER_ROLE,
    ROOT,
    WORKER_ROLE,
    document,
    grant,
    iam_state,
    members,
    statement,
    verdicts,
    with_customer_key,
)

LEAST, REQUIRED = "iam.least_privilege", "iam.required_access"


def test_the_healthy_state_with_a_decoy_key_passes_both() -> None:
    results = verdicts(iam_state())
    assert {k: r.verdict for k, r in results.items()} == {LEAST: "pass", REQUIRED: "pass"}


# --- resource policies grant --------------------------------------------------------------


def test_queue_policy_granting_purge_to_the_worker_fails_naming_the_queue_policy() -> None:
    iam = iam_state()
    iam["resource_policies"]["queue"] = document(
        statement("Allow", {"AWS": PRODUCER_ROLE}, "sqs:SendMessage", ARN["queue"]),
        statement("Allow", {"AWS": WORKER_ROLE}, "sqs:PurgeQueue", ARN["queue"]))
    result = verdicts(iam)[LEAST]
    assert result.verdict == "fail"
    assert members(result, "over_granted") == [{
        "role": "worker", "action": "sqs:PurgeQueue", "resource": "queue",
        "granted_by": ["resource policy of queue Statement[1]"]}]
    assert "resource policy of queue Statement[1]" in result.summary


def test_queue_policy_open_to_everyone_grants_every_role() -> None:
    iam = iam_state()
    iam["resource_policies"]["queue"] = document(
        statement("Allow", "*", "sqs:SendMessage", ARN["queue"], Sid="Anyone"))
    result = verdicts(iam)[LEAST]
    assert [(m["role"], m["action"], m["granted_by"]) for m in members(result, "over_granted")] == [
        ("worker", "sqs:SendMessage", ["resource policy of queue Statement[0] (Sid 'Anyone')"])]


def test_queue_policy_can_supply_a_required_permission() -> None:
    iam = iam_state()
    iam["roles"]["producer"]["policies"] = {}
    assert verdicts(iam)[REQUIRED].verdict == "fail"
    iam["resource_policies"]["queue"] = document(
        statement("Allow", {"AWS": PRODUCER_ROLE}, "sqs:SendMessage", ARN["queue"]))
    assert {r.verdict for r in verdicts(iam).values()} == {"pass"}


# --- boundaries cap -----------------------------------------------------------------------


def test_boundary_that_removes_a_needed_action_fails_required_access() -> None:
    iam = iam_state()
    iam["roles"]["worker"]["boundary"] = document(
        {"Effect": "Allow", "Action": ["sqs:ReceiveMessage", "sqs:ChangeMessageVisibility"],
         "Resource": "*"})
    result = verdicts(iam)[REQUIRED]
    assert result.verdict == "fail"
    [missing] = members(result, "missing")
    assert (missing["role"], missing["action"], missing["resource"]) == (
        "worker", "sqs:DeleteMessage", "queue")
    assert "permissions boundary" in missing["problem"]


def test_boundary_caps_an_over_broad_identity_policy() -> None:
    iam = grant(iam_state(), "worker", "all", "sqs:*", "*")
    assert verdicts(iam)[LEAST].verdict == "fail"
    iam["roles"]["worker"]["boundary"] = document(
        {"Effect": "Allow", "Action": WORKER_ACTIONS, "Resource": ARN["queue"]})
    assert {r.verdict for r in verdicts(iam).values()} == {"pass"}


def test_boundary_caps_a_queue_policy_grant_to_the_role() -> None:
    iam = iam_state()
    iam["resource_policies"]["queue"] = document(
        statement("Allow", {"AWS": WORKER_ROLE}, "sqs:PurgeQueue", ARN["queue"]))
    iam["roles"]["worker"]["boundary"] = document(
        {"Effect": "Allow", "Action": WORKER_ACTIONS, "Resource": "*"})
    assert verdicts(iam)[LEAST].verdict == "pass"


# --- explicit denies win ------------------------------------------------------------------


def test_explicit_deny_in_a_resource_policy_wins_over_an_identity_allow() -> None:
    iam = grant(iam_state(), "worker", "purge", "sqs:PurgeQueue", ARN["queue"])
    assert verdicts(iam)[LEAST].verdict == "fail"
    iam["resource_policies"]["queue"] = document(
        statement("Deny", "*", ["sqs:PurgeQueue", "sqs:DeleteMessage"], ARN["queue"]))
    results = verdicts(iam)
    assert results[LEAST].verdict == "pass"
    assert results[REQUIRED].verdict == "fail"
    [missing] = members(results[REQUIRED], "missing")
    assert missing["action"] == "sqs:DeleteMessage"
    assert missing["denied_by"] == ["resource policy of queue Statement[0]"]


# --- KMS: key use that follows from the queue's encryption --------------------------------


def _customer_key_state() -> dict:
    iam = with_customer_key(iam_state())
    grant(iam, "worker", "key", CONSUMER_KEY_USE, KEY)
    return grant(iam, "producer", "key", PRODUCER_KEY_USE, KEY)


def test_customer_managed_key_with_exactly_the_key_use_sqs_needs_passes() -> None:
    results = verdicts(_customer_key_state(), KMS_PARAMS)
    assert {k: r.verdict for k, r in results.items()} == {LEAST: "pass", REQUIRED: "pass"}


def test_key_use_is_an_over_grant_without_the_allowance() -> None:
    result = verdicts(_customer_key_state())[LEAST]
    assert result.verdict == "fail"
    assert sorted((m["role"], m["action"]) for m in members(result, "over_granted")) == [
        ("producer", "kms:Decrypt"), ("producer", "kms:GenerateDataKey"),
        ("worker", "kms:Decrypt")]


def test_key_allowance_covers_only_the_queues_key() -> None:
    # No customer managed key: the allowance names no resource, and key use on any key
    # (here the decoy) is an over-grant.
    iam = grant(iam_state(), "worker", "key", "kms:Decrypt", "*")
    result = verdicts(iam, KMS_PARAMS)[LEAST]
    assert [(m["action"], m["resource"]) for m in members(result, "over_granted")] == [
        ("kms:Decrypt", "decoy_key")]


def test_key_requirement_applies_only_when_the_queue_uses_a_customer_key() -> None:
    assert verdicts(iam_state(), KMS_PARAMS)[REQUIRED].verdict == "pass"
    result = verdicts(with_customer_key(iam_state()), KMS_PARAMS)[REQUIRED]
    assert result.verdict == "fail"
    assert {(m["role"], m["action"]) for m in members(result, "missing")} == {
        ("worker", "kms:Decrypt"), ("producer", "kms:Decrypt"),
        ("producer", "kms:GenerateDataKey")}


def test_key_policy_that_names_the_roles_as_key_users_passes() -> None:
    key_policy = document(
        statement("Allow", {"AWS": ROOT}, ["kms:Describe*", "kms:Put*"]),
        statement("Allow", {"AWS": WORKER_ROLE}, CONSUMER_KEY_USE),
        statement("Allow", {"AWS": PRODUCER_ROLE}, PRODUCER_KEY_USE))
    results = verdicts(with_customer_key(iam_state(), key_policy), KMS_PARAMS)
    assert {r.verdict for r in results.values()} == {"pass"}


def test_key_policy_granting_the_worker_everything_is_named() -> None:
    key_policy = document(DEFAULT_KEY_POLICY["Statement"][0],
                          statement("Allow", {"AWS": WORKER_ROLE}, "kms:*", Sid="Worker"))
    result = verdicts(with_customer_key(iam_state(), key_policy), KMS_PARAMS)[LEAST]
    assert result.verdict == "fail"
    assert result.evidence["over_granted"]["count"] > 20  # every other KMS action on the key
    found = members(result, "over_granted")
    assert {(m["role"], m["resource"]) for m in found} == {("worker", "queue.kms_key")}
    assert all(m["granted_by"] == ["resource policy of queue.kms_key Statement[1] (Sid 'Worker')"]
               for m in found)
    assert "kms:Decrypt" not in {m["action"] for m in found}


def test_identity_grants_on_a_key_do_not_count_unless_the_key_policy_allows_the_account() -> None:
    key_policy = document(statement("Allow", {"AWS": f"{ROOT[:-4]}role/admin"}, "kms:*"))
    iam = with_customer_key(_customer_key_state(), key_policy)
    result = verdicts(iam, KMS_PARAMS)[REQUIRED]
    assert result.verdict == "fail"
    assert all("KMS key policy" in m["problem"] for m in members(result, "missing"))


# --- bad state ----------------------------------------------------------------------------


def test_a_resource_policy_that_does_not_parse_allows_no_one_and_is_named() -> None:
    # As in the gateway: AWS would have refused the document, so nothing passes through it.
    iam = grant(iam_state(), "worker", "purge", "sqs:PurgeQueue", ARN["queue"])
    iam["resource_policies"]["queue"] = {"Statement": [{"Effect": "Permit", "Action": "sqs:*"}]}
    results = verdicts(iam)
    assert results[LEAST].verdict == "pass"
    assert results[REQUIRED].verdict == "fail"
    problem = members(results[REQUIRED], "missing")[0]["problem"]
    assert "final.iam.resource_policies.queue" in problem and "Effect" in problem


def test_a_role_policy_that_does_not_parse_leaves_the_role_nothing() -> None:
    iam = grant(iam_state(), "worker", "all", "sqs:*", "*")
    iam["roles"]["worker"]["policies"]["broken"] = {"Statement": "nope"}
    results = verdicts(iam)
    assert results[LEAST].verdict == "pass"
    [first, *_] = members(results[REQUIRED], "missing")
    assert "final.iam.roles.worker.policies.broken" in first["problem"]


# The fixtures' short names -> the names order-pipeline gives its resources.
SCENARIO_NAMES = {"worker": "role.worker", "producer": "role.producer", "queue": "queue.orders",
                  "dlq": "queue.dlq", "queue.kms_key": "queue.orders.kms_key"}


def _as_in_the_scenario(iam: dict) -> dict:
    rename = lambda name: SCENARIO_NAMES.get(name, name)  # noqa: E731
    return {**iam, "roles": {rename(k): v for k, v in iam["roles"].items()},
            "resources": {rename(k): v for k, v in iam["resources"].items()},
            "resource_policies": {rename(k): v for k, v in iam["resource_policies"].items()}}


def test_order_pipeline_allows_and_requires_the_key_use_of_a_customer_key() -> None:
    params = {k: v for k, v in scenario.load("order-pipeline").params.items()
              if k in (LEAST, REQUIRED)}
    for iam in (iam_state(), _customer_key_state()):
        found = verdicts(_as_in_the_scenario(iam), params)
        assert {r.verdict for r in found.values()} == {"pass"}, found
    keyed = _as_in_the_scenario(with_customer_key(iam_state()))
    assert verdicts(keyed, params)[REQUIRED].verdict == "fail"
