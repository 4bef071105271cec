"""Used vs granted, from the gateway's authz records and the final IAM state."""

from __future__ import annotations

import random

from kit.history import FinalState, History, parse_op
from kit.iam import Request, evaluate, parse_policy, unknown_actions
from kit.iam.usage import needed_policy, role_of, summary, used_vs_granted

from ..checks.builder import ARN, WORKER_ACTIONS, allow, healthy_iam

SERVICES = ("sqs", "sts", "kms")
QUEUE = ARN["queue"]
# (process, action, resource, decision) as kit/gateway/guard.py records them.
CALLS = [
    ("producer", "sqs:SendMessage", QUEUE, "Allow"),
    ("worker-0", "sts:GetCallerIdentity", "*", "Allow"),
    ("worker-0", "sqs:ReceiveMessage", QUEUE, "Allow"),
    ("worker-1#1", "sqs:ChangeMessageVisibility", QUEUE, "Allow"),
    ("worker-1#1", "sqs:DeleteMessage", QUEUE, "Allow"),
    ("worker-0", "sqs:PurgeQueue", QUEUE, "ImplicitDeny"),
    ("worker-0", "sqs:ReceiveMessage", QUEUE, "ImplicitDeny"),  # during iam_revoke
    ("observer", "sqs:SendMessage", QUEUE, "Allow"),  # no role: ignored
    ("anonymous", "sqs:ListQueues", "", "ImplicitDeny"),  # unmapped: no resource
]


def history(calls: list[tuple[str, str, str, str]] = CALLS, iam: dict | None = None
            ) -> History:
    ops = [parse_op({"index": i, "time": i * 0.1, "process": process, "kind": "authz",
                     "value": {"action": action, "operation": action.split(":")[1],
                               "resource": resource, "decision": decision, "deciding": [],
                               "reason": ""}})
           for i, (process, action, resource, decision) in enumerate(calls)]
    return History(ops=tuple(ops), final=FinalState(iam=iam) if iam is not None else None)


def test_processes_map_to_roles_by_their_longest_prefix() -> None:
    roles = {"worker-": "worker", "worker-admin": "admin", "producer": "producer"}
    assert role_of("worker-0#3", roles) == "worker"
    assert role_of("worker-admin-1", roles) == "admin"
    assert role_of("producer", roles) == "producer"
    assert role_of("observer", roles) is None


def test_needed_policy_is_the_used_pairs_grouped_by_resource() -> None:
    report = used_vs_granted(history(iam=healthy_iam()), SERVICES)
    worker = report["worker"]
    assert worker["processes"] == ["worker-0", "worker-1#1"]
    assert worker["needed_policy"] == {"Version": "2012-10-17", "Statement": [
        {"Effect": "Allow", "Action": ["sts:GetCallerIdentity"], "Resource": "*"},
        {"Effect": "Allow", "Action": sorted(WORKER_ACTIONS), "Resource": QUEUE}]}
    # Refused and never allowed; a pair refused once but used otherwise is used.
    assert worker["denied"] == [["sqs:PurgeQueue", QUEUE]]
    assert report["producer"]["needed_policy"]["Statement"] == [
        {"Effect": "Allow", "Action": ["sqs:SendMessage"], "Resource": QUEUE}]


def test_needed_policy_is_a_valid_policy_allowing_exactly_what_was_used() -> None:
    document = used_vs_granted(history(iam=healthy_iam()), SERVICES)["worker"]["needed_policy"]
    parse_policy(document)
    assert unknown_actions(document) == ()
    session = "arn:aws:sts::123456789012:assumed-role/worker/s"
    for action in (*WORKER_ACTIONS, "sqs:PurgeQueue", "sqs:SendMessage"):
        decision = evaluate(Request(session, action, QUEUE), [document])
        assert decision.allowed == (action in WORKER_ACTIONS), action


def test_tight_roles_have_nothing_granted_but_unused() -> None:
    report = used_vs_granted(history(iam=healthy_iam()), SERVICES)
    assert (report["worker"]["granted"], report["worker"]["granted_unused"]) == (3, [])
    assert (report["producer"]["granted"], report["producer"]["granted_unused"]) == (1, [])


def test_granted_but_unused_lists_what_a_broad_policy_adds() -> None:
    iam = healthy_iam()
    iam["roles"]["worker"]["policies"] = {"all": allow("sqs:*", QUEUE)}
    worker = used_vs_granted(history(iam=iam), SERVICES)["worker"]
    unused = {m["action"] for m in worker["granted_unused"]}
    assert "sqs:PurgeQueue" in unused and "sqs:GetQueueAttributes" in unused
    assert not unused & set(WORKER_ACTIONS)
    assert worker["granted"] == len(unused) + len(WORKER_ACTIONS)
    assert {tuple(m["granted_by"]) for m in worker["granted_unused"]} == {
        ("identity policy 'all' Statement[0]",)}


def test_without_iam_state_only_the_use_is_known() -> None:
    report = used_vs_granted(history(), SERVICES)
    assert report["worker"]["granted"] is None and report["worker"]["granted_unused"] is None
    assert report["worker"]["used"]


def test_the_role_mapping_is_a_parameter() -> None:
    report = used_vs_granted(history(iam=healthy_iam()), SERVICES, {"worker-1": "worker"})
    assert list(report) == ["worker"]
    assert report["worker"]["processes"] == ["worker-1#1"]
    assert report["worker"]["granted_unused"] == [
        {"action": "sqs:ReceiveMessage", "resource": "queue",
         "granted_by": ["identity policy 'consume' Statement[0]"]}]


def test_the_report_does_not_depend_on_the_order_of_calls() -> None:
    shuffled = list(CALLS)
    random.Random(7).shuffle(shuffled)
    assert used_vs_granted(history(shuffled, healthy_iam()), SERVICES) == used_vs_granted(
        history(iam=healthy_iam()), SERVICES)


def test_a_role_that_used_nothing_needs_no_policy() -> None:
    assert needed_policy([]) is None
    report = used_vs_granted(history(CALLS[:1], healthy_iam()), SERVICES)
    assert report["worker"]["needed_policy"] is None
    assert report["worker"]["granted_unused"] == [
        {"action": a, "resource": "queue", "granted_by": ["identity policy 'consume' Statement[0]"]}
        for a in sorted(WORKER_ACTIONS)]


def test_objects_written_are_one_resource_their_bucket_s_objects() -> None:
    bucket = "arn:aws:s3:::results"
    iam = healthy_iam()
    iam["resources"]["bucket"] = bucket
    iam["roles"]["worker"]["policies"]["write"] = allow("s3:PutObject", f"{bucket}/*")
    calls = [("worker-0", "s3:PutObject", f"{bucket}/j-{n}.json", "Allow") for n in range(3)]
    worker = used_vs_granted(history(calls, iam), ("s3",))["worker"]
    assert worker["needed_policy"]["Statement"] == [
        {"Effect": "Allow", "Action": ["s3:PutObject"], "Resource": f"{bucket}/*"}]
    assert worker["granted_unused"] == []  # the grant on its objects was exercised


def _reader(extra: dict | None = None) -> dict:
    """final.iam where the worker may read a bucket's objects and list the bucket."""
    iam = healthy_iam()
    iam["resources"]["bucket"] = BUCKET
    iam["roles"]["worker"]["policies"]["read"] = allow("s3:GetObject", f"{BUCKET}/*")
    iam["roles"]["worker"]["policies"]["list"] = allow("s3:ListBucket", BUCKET)
    iam["roles"]["worker"]["policies"].update(extra or {})
    return iam


BUCKET = "arn:aws:s3:::results"
READS = [("worker-0", "s3:GetObject", f"{BUCKET}/j-{n}.json", "Allow") for n in range(85)]


def test_used_and_granted_are_counted_in_one_unit_granted_pairs() -> None:
    # 85 objects read exercise one grant (s3:GetObject on the bucket's objects), not 85.
    worker = used_vs_granted(history(READS, _reader()), ("s3",))["worker"]
    assert len(worker["used"]) == 85  # the calls, one pair per object
    assert (worker["granted"], worker["granted_used"]) == (2, 1)
    assert summary(worker).startswith("used 1 of 2 granted (action, resource) pairs;")
    assert worker["granted_used"] <= worker["granted"]


def test_list_bucket_beside_get_object_is_never_advised_away() -> None:
    worker = used_vs_granted(history(READS, _reader()), ("s3",))["worker"]
    assert worker["granted_unused"] == []
    [kept] = worker["granted_exempt"]
    assert (kept["action"], kept["resource"]) == ("s3:ListBucket", "bucket")
    assert "403 AccessDenied, not 404 NoSuchKey" in kept["reason"]
    assert "never used: 0; kept though unused: 1 (s3:ListBucket on bucket: " in summary(worker)


def test_list_bucket_the_gateway_decided_for_a_missing_key_is_used() -> None:
    calls = [*READS, ("worker-0", "s3:ListBucket", BUCKET, "Allow")]  # guard.hide_missing
    worker = used_vs_granted(history(calls, _reader()), ("s3",))["worker"]
    assert (worker["granted_used"], worker["granted_exempt"], worker["granted_unused"]) == (
        2, [], [])


def test_list_bucket_without_get_object_is_no_exemption() -> None:
    iam = _reader()
    del iam["roles"]["worker"]["policies"]["read"]
    worker = used_vs_granted(history([], iam), ("s3",))["worker"]
    assert worker["granted_exempt"] == []
    assert [g["action"] for g in worker["granted_unused"]] == ["s3:ListBucket"]


def test_the_summary_of_a_role_without_iam_state_counts_a_bucket_s_objects_once() -> None:
    worker = used_vs_granted(history(READS), ("s3",))["worker"]
    assert worker["granted_used"] is None and worker["granted_exempt"] is None
    assert summary(worker) == ("used 1 (action, resource) pairs (a bucket's objects as one); "
                               "granted unknown (no IAM state)")


def test_the_summary_reads_a_document_of_an_older_kit() -> None:
    entry = {"used": [["sqs:ReceiveMessage", QUEUE]] * 1, "granted": 3,
             "granted_unused": [{"action": "sqs:PurgeQueue", "resource": "queue",
                                 "granted_by": []}]}
    assert summary(entry).startswith("used 2 of 3 granted (action, resource) pairs; "
                                     "never used: 1 (sqs:PurgeQueue on queue)")
