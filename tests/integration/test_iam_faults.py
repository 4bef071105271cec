"""The IAM mutation faults against a real moto server, judged by real calls through the
enforcing gateway: each one denies during its window, and healing restores access and the
IAM state as it was. Also the key use that SQS and S3 imply (kit/gateway/encryption.py).

Each test makes its own roles, queues, buckets and keys (unique names), assumes the role as
the harness and registers the session with the gateway, as the kit does.
"""

from __future__ import annotations

import json
import threading
from typing import Any

from kit import aws
from kit.faults import FAULTS, FaultContext
from kit.faults.nemesis import Nemesis
from kit.faults.spec import Fault
from kit.gateway.server import Gateway
from tests.integration.iam_env import Env
from tests.integration.iam_env import allow as _allow
from tests.integration.iam_env import assumed_role as _role
from tests.integration.iam_env import denied as _denied
from tests.integration.iam_env import doc as _doc
from tests.integration.iam_env import last as _last
from tests.integration.iam_env import make_fault as _fault
from tests.integration.iam_env import names as _names
from tests.integration.iam_env import queue as _queue


def _managed(env: Env, *statements: dict[str, Any]) -> str:
    return aws.client("iam", env.moto).create_policy(
        PolicyName=f"policy-{next(_names)}", PolicyDocument=_doc(*statements))["Policy"]["Arn"]


def _bucket(env: Env) -> str:
    name = f"bucket-{next(_names)}"
    aws.client("s3", env.moto).create_bucket(Bucket=name)
    return name


def _key(env: Env) -> str:
    return aws.client("kms", env.moto).create_key()["KeyMetadata"]["Arn"]


# --- policy_rollback -------------------------------------------------------------------------


def test_a_boundary_rolled_back_denies_what_the_older_version_did_not_allow(
        env: Env, gw: Gateway) -> None:
    bucket = _bucket(env)
    boundary = _managed(env, _allow(["sqs:*", "s3:*"]))
    worker = _role(env, gw, _allow(["sqs:*", "s3:*"]), boundary=boundary)
    url, _ = _queue(env)
    s3, sqs = worker.client("s3", gw), worker.client("sqs", gw)
    s3.put_object(Bucket=bucket, Key="before", Body=b"x")
    fault = _fault(gw, "policy_rollback", "policy.boundary", {"without": ["s3:PutObject"]},
                   values={"policy.boundary.arn": boundary})
    detail = fault.start()
    assert detail["rolled_back"] == [{"policy": boundary, "default_before": "v1",
                                      "default_during": "v2"}]
    _denied(lambda: s3.put_object(Bucket=bucket, Key="during", Body=b"x"))
    assert "permissions boundary" in _last(gw)["reason"]
    sqs.send_message(QueueUrl=url, MessageBody="the rest of the boundary still allows")
    s3.list_objects_v2(Bucket=bucket)
    restored = fault.heal()
    assert restored["restored"] == [{"policy": boundary, "default": "v1",
                                     "deleted_version": "v2"}]
    s3.put_object(Bucket=bucket, Key="after", Body=b"x")
    versions = aws.client("iam", env.moto).list_policy_versions(PolicyArn=boundary)["Versions"]
    assert [(v["VersionId"], v["IsDefaultVersion"]) for v in versions] == [("v1", True)]


def test_a_role_s_managed_policy_is_rolled_back_and_inline_only_roles_are_left_alone(
        env: Env, gw: Gateway) -> None:
    url, arn = _queue(env)
    worker = _role(env, gw)
    send = _managed(env, _allow(["sqs:SendMessage", "sqs:GetQueueAttributes"], arn))
    aws.client("iam", env.moto).attach_role_policy(RoleName=worker.name, PolicyArn=send)
    gw.invalidate()
    sqs = worker.client("sqs", gw)
    fault = _fault(gw, "policy_rollback", "role.worker", {"without": ["sqs:SendMessage"]},
                   roles={"role.worker": worker.arn})
    fault.start()
    _denied(lambda: sqs.send_message(QueueUrl=url, MessageBody="x"))
    sqs.get_queue_attributes(QueueUrl=url)
    fault.heal()
    sqs.send_message(QueueUrl=url, MessageBody="x")
    inline = _role(env, gw, _allow("sqs:SendMessage", arn), process="worker-1")
    untouched = _fault(gw, "policy_rollback", "role.worker", {"without": ["sqs:SendMessage"]},
                       roles={"role.worker": inline.arn})
    assert untouched.start()["effect"].startswith("nothing to roll back")
    inline.client("sqs", gw).send_message(QueueUrl=url, MessageBody="x")
    assert untouched.heal()["restored"] == []


# --- boundary_tightened ----------------------------------------------------------------------


def test_a_boundary_is_attached_for_the_window_then_removed(env: Env, gw: Gateway) -> None:
    url, arn = _queue(env, Attributes={"VisibilityTimeout": "0"})
    worker = _role(env, gw, _allow("sqs:*", arn))
    sqs = worker.client("sqs", gw)
    sqs.send_message(QueueUrl=url, MessageBody="x")
    fault = _fault(gw, "boundary_tightened", "role.worker", {"revoke": ["sqs:DeleteMessage"]},
                   roles={"role.worker": worker.arn})
    detail = fault.start()
    assert detail["boundary_before"] is None and detail["effect"].startswith("boundary attached")
    held = sqs.receive_message(QueueUrl=url)["Messages"][0]
    _denied(lambda: sqs.delete_message(QueueUrl=url, ReceiptHandle=held["ReceiptHandle"]))
    assert "permissions boundary" in _last(gw)["reason"]
    fault.heal()
    again = sqs.receive_message(QueueUrl=url)["Messages"][0]
    sqs.delete_message(QueueUrl=url, ReceiptHandle=again["ReceiptHandle"])
    iam = aws.client("iam", env.moto)
    assert "PermissionsBoundary" not in iam.get_role(RoleName=worker.name)["Role"]
    assert not [p for p in iam.list_policies(Scope="Local")["Policies"]
                if p["Arn"] == detail["boundary_during"]]


def test_an_existing_boundary_is_tightened_then_put_back(env: Env, gw: Gateway) -> None:
    url, arn = _queue(env)
    boundary = _managed(env, _allow(["sqs:SendMessage", "sqs:GetQueueAttributes"]))
    worker = _role(env, gw, _allow("sqs:*", arn), boundary=boundary)
    sqs = worker.client("sqs", gw)
    fault = _fault(gw, "boundary_tightened", "role.worker", {"revoke": ["sqs:SendMessage"]},
                   roles={"role.worker": worker.arn})
    assert fault.start()["boundary_before"] == boundary
    _denied(lambda: sqs.send_message(QueueUrl=url, MessageBody="x"))
    sqs.get_queue_attributes(QueueUrl=url)  # the rest of the original boundary holds
    _denied(lambda: sqs.purge_queue(QueueUrl=url))  # and so does what it never allowed
    fault.heal()
    sqs.send_message(QueueUrl=url, MessageBody="x")
    role = aws.client("iam", env.moto).get_role(RoleName=worker.name)["Role"]
    assert role["PermissionsBoundary"]["PermissionsBoundaryArn"] == boundary


# --- statement_removed -----------------------------------------------------------------------


def test_inline_statements_are_removed_for_the_window_then_restored(env: Env,
                                                                     gw: Gateway) -> None:
    url, arn = _queue(env)
    consume = {"Sid": "Send", **_allow("sqs:SendMessage", arn)}
    read = {"Sid": "Read", **_allow("sqs:GetQueueAttributes", arn)}
    worker = _role(env, gw, consume, read)
    iam = aws.client("iam", env.moto)
    original = iam.get_role_policy(RoleName=worker.name, PolicyName="main")["PolicyDocument"]
    sqs = worker.client("sqs", gw)
    fault = _fault(gw, "statement_removed", "role.worker", {"actions": ["sqs:SendMessage"]},
                   roles={"role.worker": worker.arn})
    assert fault.start()["removed"] == {"main": [consume]}
    _denied(lambda: sqs.send_message(QueueUrl=url, MessageBody="x"))
    sqs.get_queue_attributes(QueueUrl=url)
    assert fault.heal()["restored"] == ["main"]
    sqs.send_message(QueueUrl=url, MessageBody="x")
    assert iam.get_role_policy(RoleName=worker.name, PolicyName="main")[
        "PolicyDocument"] == original


# --- resource_deny ---------------------------------------------------------------------------


def test_a_queue_policy_deny_names_one_role_and_is_removed_at_heal(env: Env,
                                                                   gw: Gateway) -> None:
    url, arn = _queue(env)
    worker = _role(env, gw, _allow("sqs:*", arn))
    other = _role(env, gw, _allow("sqs:*", arn), process="producer")
    fault = _fault(gw, "resource_deny", "queue.jobs", {"actions": ["sqs:SendMessage"],
                                                       "principal": "role.worker"},
                   roles={"role.worker": worker.arn},
                   values={"queue.jobs.url": url, "queue.jobs.arn": arn})
    assert fault.start()["policy_before"] == "none"
    _denied(lambda: worker.client("sqs", gw).send_message(QueueUrl=url, MessageBody="x"))
    assert _last(gw)["decision"] == "ExplicitDeny"
    other.client("sqs", gw).send_message(QueueUrl=url, MessageBody="not denied")
    fault.heal()
    worker.client("sqs", gw).send_message(QueueUrl=url, MessageBody="x")
    attrs = aws.client("sqs", env.moto).get_queue_attributes(QueueUrl=url,
                                                             AttributeNames=["All"])
    assert not attrs["Attributes"].get("Policy")


def test_a_bucket_policy_keeps_its_statements_and_gets_them_back(env: Env,
                                                                 gw: Gateway) -> None:
    bucket = _bucket(env)
    arn = f"arn:aws:s3:::{bucket}"
    worker = _role(env, gw, _allow("s3:*", [arn, f"{arn}/*"]))
    s3admin = aws.client("s3", env.moto)
    original = _doc({"Sid": "DenyDeletes", "Effect": "Deny", "Principal": "*",
                     "Action": "s3:DeleteObject", "Resource": f"{arn}/*"})
    s3admin.put_bucket_policy(Bucket=bucket, Policy=original)
    fault = _fault(gw, "resource_deny", "bucket.results", {"actions": ["s3:PutObject"]},
                   values={"bucket.results.name": bucket, "bucket.results.arn": arn})
    fault.start()
    s3 = worker.client("s3", gw)
    _denied(lambda: s3.put_object(Bucket=bucket, Key="k", Body=b"x"))
    _denied(lambda: s3.delete_object(Bucket=bucket, Key="k"))  # the original deny holds
    fault.heal()
    s3.put_object(Bucket=bucket, Key="k", Body=b"x")
    assert json.loads(s3admin.get_bucket_policy(Bucket=bucket)["Policy"]) == json.loads(
        original)


def test_a_key_policy_deny_stops_sqs_from_decrypting_for_the_role(env: Env,
                                                                  gw: Gateway) -> None:
    key = _key(env)
    url, arn = _queue(env, Attributes={"KmsMasterKeyId": key})
    worker = _role(env, gw, _allow("sqs:*", arn),
                   _allow(["kms:Decrypt", "kms:GenerateDataKey"], key))
    sqs = worker.client("sqs", gw)
    sqs.send_message(QueueUrl=url, MessageBody="x")
    fault = _fault(gw, "resource_deny", "key.shared", {"actions": ["kms:Decrypt"],
                                                       "principal": "role.worker"},
                   roles={"role.worker": worker.arn}, values={"key.shared.arn": key})
    fault.start()
    _denied(lambda: sqs.receive_message(QueueUrl=url), "KmsAccessDenied")
    denied = _last(gw)
    assert (denied["action"], denied["resource"], denied["decision"]) == (
        "kms:Decrypt", key, "ExplicitDeny")
    fault.heal()
    assert sqs.receive_message(QueueUrl=url)["Messages"][0]["Body"] == "x"


# --- trust_narrowed --------------------------------------------------------------------------


def test_a_narrowed_trust_refuses_new_sessions_and_revokes_existing_ones(env: Env,
                                                                         gw: Gateway) -> None:
    # IAM User Guide, "Revoking IAM role temporary security credentials": a running session
    # is denied every call once revoked (kit/faults/iam/trust.py); heal lifts it.
    url, arn = _queue(env)
    worker = _role(env, gw, _allow("sqs:SendMessage", arn))
    iam = aws.client("iam", env.moto)
    original = iam.get_role(RoleName=worker.name)["Role"]["AssumeRolePolicyDocument"]
    fault = _fault(gw, "trust_narrowed", "role.worker", {},
                   roles={"role.worker": worker.arn}, harness=env.harness)
    assert fault.start()["harness_can_assume"] is False
    probe = _last(gw)
    assert (probe["action"], probe["resource"], probe["decision"]) == (
        "sts:AssumeRole", worker.arn, "ImplicitDeny")
    harness_sts = aws.client("sts", gw.url, env.harness)
    _denied(lambda: harness_sts.assume_role(RoleArn=worker.arn, RoleSessionName="again"))
    _denied(lambda: worker.client("sqs", gw).send_message(QueueUrl=url, MessageBody="x"))
    assert _last(gw)["decision"] == "ExplicitDeny"
    assert fault.heal()["harness_can_assume"] is True
    harness_sts.assume_role(RoleArn=worker.arn, RoleSessionName="again")
    worker.client("sqs", gw).send_message(QueueUrl=url, MessageBody="a renewed session")
    assert iam.get_role(RoleName=worker.name)["Role"]["AssumeRolePolicyDocument"] == original
    assert iam.list_role_policies(RoleName=worker.name)["PolicyNames"] == ["main"]


# --- the nemesis records what changed and what was restored ----------------------------------


def test_fault_start_and_end_carry_what_changed_and_what_was_restored(env: Env,
                                                                      gw: Gateway) -> None:
    url, arn = _queue(env)
    worker = _role(env, gw, _allow("sqs:SendMessage", arn))
    spec = Fault(kind="statement_removed", target="role.worker", duration_seconds=0.01,
                 params={"actions": ["sqs:SendMessage"]})
    ctx = FaultContext(spec=spec, params=FAULTS[spec.kind].Params.model_validate(spec.params),
                       recorder=gw.recorder, supervisor=None, gateway=gw,
                       stopping=threading.Event(),
                       roles={"role.worker": worker.arn})
    nemesis = Nemesis(ctx)
    nemesis.run()
    ops = {op.kind: op.value.as_dict() for op in gw.recorder.snapshot()
           if op.kind.startswith("fault_")}
    assert nemesis.error is None
    assert ops["fault_start"]["detail"]["removed"]["main"][0]["Action"] == "sqs:SendMessage"
    assert ops["fault_end"]["detail"]["restored"] == ["main"]


# --- key use implied by SQS and S3 calls ------------------------------------------------------


def test_sqs_needs_the_key_use_its_docs_name(env: Env, gw: Gateway) -> None:
    key = _key(env)
    url, arn = _queue(env, Attributes={"KmsMasterKeyId": key})
    producer = _role(env, gw, _allow("sqs:SendMessage", arn), _allow("kms:GenerateDataKey", key),
                     process="producer")
    _denied(lambda: producer.client("sqs", gw).send_message(QueueUrl=url, MessageBody="x"),
            "KmsAccessDenied")
    assert (_last(gw)["action"], _last(gw)["operation"]) == ("kms:Decrypt", "SendMessage")
    both = _role(env, gw, _allow("sqs:SendMessage", arn), {
        "Effect": "Allow", "Action": ["kms:GenerateDataKey", "kms:Decrypt"], "Resource": key,
        "Condition": {"StringEquals": {"kms:ViaService": "sqs.us-east-1.amazonaws.com"}}},
        process="producer-2")
    both.client("sqs", gw).send_message(QueueUrl=url, MessageBody="x")
    # An AWS managed key needs no grant: the whole account may use it through SQS.
    managed_url, managed_arn = _queue(env, Attributes={"KmsMasterKeyId": "alias/aws/sqs"})
    plain = _role(env, gw, _allow("sqs:SendMessage", managed_arn), process="producer-3")
    plain.client("sqs", gw).send_message(QueueUrl=managed_url, MessageBody="x")


def test_a_key_policy_that_does_not_enable_iam_policies_refuses_them(env: Env,
                                                                     gw: Gateway) -> None:
    kms = aws.client("kms", env.moto)
    key = kms.create_key(Policy=_doc({"Sid": "AdminOnly", "Effect": "Allow", "Principal": {
        "AWS": aws.HARNESS_ARN}, "Action": "kms:*", "Resource": "*"}))["KeyMetadata"]["Arn"]
    bucket = _bucket(env)
    aws.client("s3", env.moto).put_bucket_encryption(
        Bucket=bucket, ServerSideEncryptionConfiguration={"Rules": [{
            "ApplyServerSideEncryptionByDefault": {"SSEAlgorithm": "aws:kms",
                                                   "KMSMasterKeyID": key}}]})
    writer = _role(env, gw, _allow("s3:PutObject", f"arn:aws:s3:::{bucket}/*"),
                   _allow("kms:GenerateDataKey", key))
    _denied(lambda: writer.client("s3", gw).put_object(Bucket=bucket, Key="k", Body=b"x"))
    assert "KMS key policy" in _last(gw)["reason"]


def test_s3_uploads_and_downloads_use_the_object_s_key_and_head_needs_none(
        env: Env, gw: Gateway) -> None:
    key = _key(env)
    bucket = _bucket(env)
    aws.client("s3", env.moto).put_bucket_encryption(
        Bucket=bucket, ServerSideEncryptionConfiguration={"Rules": [{
            "ApplyServerSideEncryptionByDefault": {"SSEAlgorithm": "aws:kms",
                                                   "KMSMasterKeyID": key}}]})
    objects = f"arn:aws:s3:::{bucket}/*"
    writer = _role(env, gw, _allow(["s3:PutObject", "s3:GetObject"], objects),
                   _allow("kms:GenerateDataKey", key))
    s3 = writer.client("s3", gw)
    s3.put_object(Bucket=bucket, Key="k", Body=b"x")
    assert s3.head_object(Bucket=bucket, Key="k")["ContentLength"] == 1
    _denied(lambda: s3.get_object(Bucket=bucket, Key="k"))
    assert (_last(gw)["action"], _last(gw)["resource"]) == ("kms:Decrypt", key)


def test_a_bucket_policy_denying_insecure_transport_does_not_deny_sdk_calls(
        env: Env, gw: Gateway) -> None:
    bucket = _bucket(env)
    arn = f"arn:aws:s3:::{bucket}"
    aws.client("s3", env.moto).put_bucket_policy(Bucket=bucket, Policy=_doc({
        "Sid": "DenyInsecureTransport", "Effect": "Deny", "Principal": "*", "Action": "s3:*",
        "Resource": [arn, f"{arn}/*"], "Condition": {"Bool": {"aws:SecureTransport": "false"}}}))
    writer = _role(env, gw, _allow("s3:PutObject", f"{arn}/*"))
    writer.client("s3", gw).put_object(Bucket=bucket, Key="k", Body=b"x")
