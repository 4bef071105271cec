"""Requests as boto3 sends them -> the IAM actions and resources AWS authorizes."""

from __future__ import annotations

from collections.abc import Callable

from kit.gateway import actions
from kit.gateway.actions import Call, Check, s3
from tests.unit.gateway.wire import Wire, capture, query

ACCT = "123456789012"
QUEUE_URL = f"http://127.0.0.1:4566/{ACCT}/orders"
QUEUE = f"arn:aws:sqs:us-east-1:{ACCT}:orders"


class Names:
    """What the emulator would answer: a role with a path, a secret with its suffix."""

    def iam_arn(self, kind: str, name: str) -> str | None:
        return f"arn:aws:iam::{ACCT}:role/app/{name}" if kind == "role" else None

    def secret_arn(self, name: str, region: str) -> str | None:
        known = {"app/db": f"arn:aws:secretsmanager:us-east-1:{ACCT}:secret:app/db-AbCdEf"}
        return known.get(name) if region == "us-east-1" else None


def _describe(wire: Wire, names: actions.Names | None = None) -> Call:
    service = wire.headers["authorization"].split("/")[3]
    return actions.describe(wire.method, wire.path, wire.headers, wire.body, service=service,
                            account=ACCT, names=names)


def _checks(wire: Wire, names: actions.Names | None = None) -> list[tuple[str, str]]:
    return [(c.action, c.resource) for c in _describe(wire, names).checks]


# --- SQS, both protocols -------------------------------------------------------------------


def test_sqs_json_calls_map_to_the_queue_arn() -> None:
    call = _describe(capture("sqs", "send_message", QueueUrl=QUEUE_URL, MessageBody="x"))
    assert (call.service, call.operation, call.protocol) == ("sqs", "SendMessage", "json")
    assert call.checks == (Check("sqs:SendMessage", QUEUE),)
    assert not call.changes_policy


def test_sqs_json_batches_map_to_their_single_actions() -> None:
    entries = [{"Id": "1", "ReceiptHandle": "r"}]
    assert _checks(capture("sqs", "send_message_batch", QueueUrl=QUEUE_URL,
                           Entries=[{"Id": "1", "MessageBody": "x"}])) == [
        ("sqs:SendMessage", QUEUE)]
    assert _checks(capture("sqs", "delete_message_batch", QueueUrl=QUEUE_URL,
                           Entries=entries)) == [("sqs:DeleteMessage", QUEUE)]
    assert _checks(capture("sqs", "change_message_visibility_batch", QueueUrl=QUEUE_URL,
                           Entries=[{**entries[0], "VisibilityTimeout": 0}])) == [
        ("sqs:ChangeMessageVisibility", QUEUE)]


def test_sqs_query_calls_and_batches() -> None:
    version = {"Version": "2012-11-05", "QueueUrl": QUEUE_URL}
    call = _describe(query("sqs", {"Action": "DeleteMessageBatch", **version,
                                   "DeleteMessageBatchRequestEntry.1.Id": "a",
                                   "DeleteMessageBatchRequestEntry.1.ReceiptHandle": "r"}))
    assert (call.operation, call.protocol) == ("DeleteMessageBatch", "query")
    assert call.checks == (Check("sqs:DeleteMessage", QUEUE),)
    assert _checks(query("sqs", {"Action": "SendMessageBatch", **version})) == [
        ("sqs:SendMessage", QUEUE)]
    assert _checks(query("sqs", {"Action": "ChangeMessageVisibilityBatch", **version})) == [
        ("sqs:ChangeMessageVisibility", QUEUE)]
    assert _checks(query("sqs", {"Action": "ReceiveMessage", **version})) == [
        ("sqs:ReceiveMessage", QUEUE)]


def test_sqs_query_call_posted_to_the_queue_url() -> None:
    wire = query("sqs", {"Action": "GetQueueAttributes", "AttributeName.1": "All"},
                 path=f"/{ACCT}/orders")
    assert _checks(wire) == [("sqs:GetQueueAttributes", QUEUE)]


def test_sqs_queue_by_name_list_and_policy_changes() -> None:
    assert _checks(capture("sqs", "get_queue_url", QueueName="orders")) == [
        ("sqs:GetQueueUrl", QUEUE)]
    assert _checks(capture("sqs", "list_queues")) == [("sqs:ListQueues", "*")]
    assert _describe(capture("sqs", "set_queue_attributes", QueueUrl=QUEUE_URL,
                             Attributes={"Policy": "{}"})).changes_policy


def test_sqs_create_queue_with_tags_also_needs_tag_queue() -> None:
    call = _describe(capture("sqs", "create_queue", QueueName="orders", tags={"env": "prod"}))
    assert [(c.action, c.resource) for c in call.checks] == [
        ("sqs:CreateQueue", QUEUE), ("sqs:TagQueue", QUEUE)]
    assert call.context["aws:RequestTag/env"] == "prod"
    assert call.context["aws:TagKeys"] == ["env"]


# --- STS, IAM ------------------------------------------------------------------------------


def test_sts_assume_role_and_caller_identity() -> None:
    role = f"arn:aws:iam::{ACCT}:role/app/worker"
    call = _describe(capture("sts", "assume_role", RoleArn=role, RoleSessionName="w-0"))
    assert call.checks == (Check("sts:AssumeRole", role),)
    assert call.context == {"sts:RoleSessionName": "w-0"}
    assert _checks(capture("sts", "get_caller_identity")) == [("sts:GetCallerIdentity", "*")]


def test_iam_calls_map_to_the_entity_they_name() -> None:
    assert _checks(capture("iam", "get_role", RoleName="worker"), Names()) == [
        ("iam:GetRole", f"arn:aws:iam::{ACCT}:role/app/worker")]
    assert _checks(capture("iam", "get_role", RoleName="worker")) == [
        ("iam:GetRole", f"arn:aws:iam::{ACCT}:role/worker")]
    assert _checks(capture("iam", "create_role", RoleName="new", Path="/team/",
                           AssumeRolePolicyDocument="{}")) == [
        ("iam:CreateRole", f"arn:aws:iam::{ACCT}:role/team/new")]
    assert _checks(capture("iam", "create_policy", PolicyName="p", PolicyDocument="{}")) == [
        ("iam:CreatePolicy", f"arn:aws:iam::{ACCT}:policy/p")]
    policy = f"arn:aws:iam::{ACCT}:policy/p"
    assert _checks(capture("iam", "delete_policy", PolicyArn=policy)) == [
        ("iam:DeletePolicy", policy)]
    assert _checks(capture("iam", "list_roles")) == [("iam:ListRoles", "*")]


def test_iam_attach_is_authorized_on_the_role_with_the_policy_as_a_condition() -> None:
    policy = f"arn:aws:iam::{ACCT}:policy/p"
    call = _describe(capture("iam", "detach_role_policy", RoleName="worker", PolicyArn=policy),
                     Names())
    assert call.checks == (Check("iam:DetachRolePolicy", f"arn:aws:iam::{ACCT}:role/app/worker"),)
    assert call.context == {"iam:PolicyARN": policy}
    assert call.changes_policy
    assert not _describe(capture("iam", "get_role", RoleName="worker")).changes_policy


# --- S3 (path style) -----------------------------------------------------------------------


def test_s3_object_and_bucket_calls() -> None:
    assert _checks(capture("s3", "put_object", Bucket="b", Key="dir/a b+c", Body=b"x")) == [
        ("s3:PutObject", "arn:aws:s3:::b/dir/a b+c")]
    assert _checks(capture("s3", "get_object", Bucket="b", Key="k")) == [
        ("s3:GetObject", "arn:aws:s3:::b/k")]
    assert _checks(capture("s3", "head_object", Bucket="b", Key="k")) == [
        ("s3:GetObject", "arn:aws:s3:::b/k")]
    assert _checks(capture("s3", "delete_object", Bucket="b", Key="k")) == [
        ("s3:DeleteObject", "arn:aws:s3:::b/k")]
    assert _checks(capture("s3", "list_buckets")) == [("s3:ListAllMyBuckets", "*")]
    listing = _describe(capture("s3", "list_objects_v2", Bucket="b", Prefix="in/"))
    assert listing.checks == (Check("s3:ListBucket", "arn:aws:s3:::b"),)
    assert listing.context == {"s3:prefix": "in/"}
    assert _describe(capture("s3", "put_bucket_policy", Bucket="b", Policy="{}")).checks == (
        Check("s3:PutBucketPolicy", "arn:aws:s3:::b"),)


def test_s3_object_reads_carry_the_list_bucket_check_asked_of_a_missing_key() -> None:
    # S3 API reference, GetObject and HeadObject, "Permissions": a missing key is 404 with
    # s3:ListBucket on the bucket, 403 without it.
    for method in ("get_object", "head_object"):
        call = _describe(capture("s3", method, Bucket="b", Key="dir/k"))
        assert call.if_missing == Check("s3:ListBucket", "arn:aws:s3:::b"), method
    for method, extra in (("put_object", {"Key": "k", "Body": b"x"}),
                          ("get_object_tagging", {"Key": "k"}),
                          ("get_object", {"Key": "k", "VersionId": "v1"}),
                          ("list_objects_v2", {})):
        assert _describe(capture("s3", method, Bucket="b", **extra)).if_missing is None, method


def test_a_missing_key_is_a_get_s_no_such_key_or_a_head_s_404_on_a_bucket_that_exists() -> None:
    no_key = b"<Error><Code>NoSuchKey</Code><Message>The specified key does not exist.</Message>"
    no_bucket = b"<Error><Code>NoSuchBucket</Code></Error>"
    asked: list[bool] = []

    def exists(answer: bool) -> Callable[[], bool]:
        return lambda: asked.append(answer) or answer

    assert s3.missing_key("GET", 404, no_key, exists(True))
    assert not s3.missing_key("GET", 404, no_bucket, exists(False))
    assert not s3.missing_key("GET", 200, b"data", exists(True))
    assert not s3.missing_key("GET", 403, b"<Code>AccessDenied</Code>", exists(True))
    assert not s3.missing_key("HEAD", 200, b"", exists(True))
    assert asked == []  # the bucket is looked up only for a HEAD's 404
    assert s3.missing_key("HEAD", 404, b"", exists(True))
    assert not s3.missing_key("HEAD", 404, b"", exists(False))


def test_s3_copy_also_reads_its_source() -> None:
    assert _checks(capture("s3", "copy_object", Bucket="b", Key="to",
                           CopySource={"Bucket": "src", "Key": "from"})) == [
        ("s3:PutObject", "arn:aws:s3:::b/to"), ("s3:GetObject", "arn:aws:s3:::src/from")]


def test_s3_multipart_upload_is_put_object() -> None:
    assert _checks(capture("s3", "create_multipart_upload", Bucket="b", Key="k")) == [
        ("s3:PutObject", "arn:aws:s3:::b/k")]


# --- Secrets Manager, RDS ------------------------------------------------------------------


def test_secrets_by_arn_by_resolved_name_and_by_unknown_name() -> None:
    arn = f"arn:aws:secretsmanager:us-east-1:{ACCT}:secret:app/db-AbCdEf"
    wire = capture("secretsmanager", "get_secret_value", SecretId="app/db")
    call = _describe(wire, Names())
    assert (call.protocol, call.checks) == ("json", (Check("secretsmanager:GetSecretValue",
                                                           arn),))
    assert _checks(capture("secretsmanager", "get_secret_value", SecretId=arn)) == [
        ("secretsmanager:GetSecretValue", arn)]
    assert _checks(wire) == [("secretsmanager:GetSecretValue",
                              f"arn:aws:secretsmanager:us-east-1:{ACCT}:secret:app/db-??????")]
    assert _checks(capture("secretsmanager", "list_secrets")) == [
        ("secretsmanager:ListSecrets", "*")]


def test_rds_calls_map_to_every_resource_they_name() -> None:
    db = f"arn:aws:rds:us-east-1:{ACCT}:db:orders"
    assert _checks(capture("rds", "describe_db_instances", DBInstanceIdentifier="orders")) == [
        ("rds:DescribeDBInstances", db)]
    assert _checks(capture("rds", "describe_db_instances")) == [("rds:DescribeDBInstances", "*")]
    assert _checks(capture("rds", "create_db_snapshot", DBInstanceIdentifier="orders",
                           DBSnapshotIdentifier="s1")) == [
        ("rds:CreateDBSnapshot", db),
        ("rds:CreateDBSnapshot", f"arn:aws:rds:us-east-1:{ACCT}:snapshot:s1")]
    assert _checks(capture("rds", "reboot_db_instance", DBInstanceIdentifier="orders")) == [
        ("rds:RebootDBInstance", db)]
    assert _checks(capture("rds", "restore_db_instance_to_point_in_time",
                           SourceDBInstanceIdentifier="orders",
                           TargetDBInstanceIdentifier="orders-pitr",
                           UseLatestRestorableTime=True)) == [
        ("rds:RestoreDBInstanceToPointInTime", db),
        ("rds:RestoreDBInstanceToPointInTime", f"{db}-pitr")]
    assert _checks(capture("rds", "add_tags_to_resource", ResourceName=db,
                           Tags=[{"Key": "k", "Value": "v"}])) == [("rds:AddTagsToResource", db)]


# --- what cannot be mapped is denied -------------------------------------------------------


def test_unknown_service_and_unknown_action_are_unmapped() -> None:
    other = _describe(capture("kinesis", "list_streams"))
    assert not other.mapped and "kinesis" in other.problem
    bogus = query("sqs", {"Action": "StealMessages", "Version": "2012-11-05"})
    call = _describe(bogus)
    assert not call.mapped and "sqs:StealMessages" in call.problem


def test_service_is_guessed_without_a_credential_scope() -> None:
    wire = query("sts", {"Action": "GetCallerIdentity", "Version": "2011-06-15"})
    call = actions.describe(wire.method, wire.path, {}, wire.body, account=ACCT)
    assert call.checks == (Check("sts:GetCallerIdentity", "*"),)
    json_wire = capture("sqs", "list_queues")
    call = actions.describe("POST", "/", {"x-amz-target": json_wire.headers["x-amz-target"]},
                            json_wire.body, account=ACCT)
    assert call.checks == (Check("sqs:ListQueues", "*"),)
