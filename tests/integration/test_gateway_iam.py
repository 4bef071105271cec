"""The enforcing gateway in front of a real moto server: IAM as AWS decides it, recorded.

Each test creates its own roles and queues (unique names), assumes the role with the harness
user, registers the session with the gateway the way the kit does, and calls through the
gateway with plain boto3 clients. Policies are read by the gateway from moto itself.
"""

from __future__ import annotations

from typing import Any

import requests
from botocore.parsers import create_parser

from kit import aws
from kit.gateway.server import Gateway
from kit.gateway.sessions import assumed_role_arn
from tests.integration.iam_env import (
    ACCT,
    Env,
    Role,
    assumed_role,
    make_fault,
)
from tests.integration.iam_env import allow as _allow
from tests.integration.iam_env import authz as _authz
from tests.integration.iam_env import denied as _denied
from tests.integration.iam_env import doc as _doc
from tests.integration.iam_env import last as _last
from tests.integration.iam_env import names as _names
from tests.integration.iam_env import queue as _queue
from tests.unit.gateway.wire import query


def _principal(env: Env, gw: Gateway, *statements: dict[str, Any],
               tags: dict[str, str] | None = None, process: str = "worker-0") -> Role:
    """A fresh role under /app/, its session named apart from the process it serves."""
    return assumed_role(env, gw, *statements, process=process, session=f"{process}-s",
                        path="/app/", tags=tags)


# --- batch calls are authorized as their single actions ------------------------------------


def test_delete_message_grants_delete_message_batch(env: Env, gw: Gateway) -> None:
    url, arn = _queue(env)
    admin = aws.client("sqs", env.moto)
    admin.send_message_batch(QueueUrl=url, Entries=[{"Id": str(i), "MessageBody": str(i)}
                                                    for i in range(3)])
    held = admin.receive_message(QueueUrl=url, MaxNumberOfMessages=10)["Messages"]
    worker = _principal(env, gw, _allow("sqs:DeleteMessage", arn)).client("sqs", gw)
    out = worker.delete_message_batch(QueueUrl=url, Entries=[
        {"Id": str(i), "ReceiptHandle": m["ReceiptHandle"]} for i, m in enumerate(held)])
    assert len(out["Successful"]) == 3 and not out.get("Failed")
    last = _last(gw)
    assert (last["action"], last["operation"], last["resource"], last["decision"]) == (
        "sqs:DeleteMessage", "DeleteMessageBatch", arn, "Allow")
    assert last["deciding"] == ["identity policy 'inline:main' Statement[0]"]
    _denied(lambda: worker.receive_message(QueueUrl=url))  # nothing else is granted
    assert _last(gw)["decision"] == "ImplicitDeny"


def test_send_message_grants_send_message_batch(env: Env, gw: Gateway) -> None:
    url, arn = _queue(env)
    worker = _principal(env, gw, _allow("sqs:SendMessage", arn)).client("sqs", gw)
    out = worker.send_message_batch(QueueUrl=url, Entries=[{"Id": "a", "MessageBody": "x"},
                                                           {"Id": "b", "MessageBody": "y"}])
    assert len(out["Successful"]) == 2
    assert (_last(gw)["action"], _last(gw)["decision"]) == ("sqs:SendMessage", "Allow")


# --- policy language: NotResource, conditions, boundaries, resource policies ---------------


def test_not_resource_deny_is_honoured(env: Env, gw: Gateway) -> None:
    allowed_url, allowed_arn = _queue(env)
    other_url, other_arn = _queue(env)
    worker = _principal(env, gw, _allow("sqs:SendMessage"),
                        {"Effect": "Deny", "Action": "sqs:SendMessage",
                         "NotResource": allowed_arn}).client("sqs", gw)
    worker.send_message(QueueUrl=allowed_url, MessageBody="ok")
    _denied(lambda: worker.send_message(QueueUrl=other_url, MessageBody="no"))
    last = _last(gw)
    assert (last["resource"], last["decision"]) == (other_arn, "ExplicitDeny")
    assert last["deciding"] == ["identity policy 'inline:main' Statement[1]"]


def test_source_ip_condition_is_honoured(env: Env, gw: Gateway) -> None:
    url, arn = _queue(env)
    here = _principal(env, gw, _allow("sqs:SendMessage", arn, Condition={
        "IpAddress": {"aws:SourceIp": "127.0.0.0/8"}})).client("sqs", gw)
    elsewhere = _principal(env, gw, _allow("sqs:SendMessage", arn, Condition={
        "IpAddress": {"aws:SourceIp": "10.0.0.0/8"}})).client("sqs", gw)
    here.send_message(QueueUrl=url, MessageBody="from loopback")
    _denied(lambda: elsewhere.send_message(QueueUrl=url, MessageBody="x"))
    assert _last(gw)["decision"] == "ImplicitDeny"


def test_resource_tag_condition_is_honoured(env: Env, gw: Gateway) -> None:
    prod_url, _ = _queue(env, tags={"env": "prod"})
    dev_url, _ = _queue(env, tags={"env": "dev"})
    worker = _principal(env, gw, _allow("sqs:SendMessage", Condition={
        "StringEquals": {"aws:ResourceTag/env": "prod"}})).client("sqs", gw)
    worker.send_message(QueueUrl=prod_url, MessageBody="x")
    _denied(lambda: worker.send_message(QueueUrl=dev_url, MessageBody="x"))


def test_principal_tag_condition_is_honoured(env: Env, gw: Gateway) -> None:
    url, arn = _queue(env)
    statement = _allow("sqs:SendMessage", arn, Condition={
        "StringEquals": {"aws:PrincipalTag/team": "orders"}})
    tagged = _principal(env, gw, statement, tags={"team": "orders"}).client("sqs", gw)
    other = _principal(env, gw, statement, tags={"team": "billing"}).client("sqs", gw)
    tagged.send_message(QueueUrl=url, MessageBody="x")
    _denied(lambda: other.send_message(QueueUrl=url, MessageBody="x"))


def test_permissions_boundary_caps_the_identity_policy(env: Env, gw: Gateway) -> None:
    url, arn = _queue(env)
    worker = _principal(env, gw, _allow("sqs:*"))
    iam = aws.client("iam", env.moto)
    boundary = iam.create_policy(PolicyName=f"boundary-{next(_names)}",
                                 PolicyDocument=_doc(_allow("sqs:SendMessage")))["Policy"]["Arn"]
    iam.put_role_permissions_boundary(RoleName=worker.name, PermissionsBoundary=boundary)
    gw.invalidate()  # a change made directly in moto, as the kit's faults do
    sqs = worker.client("sqs", gw)
    sqs.send_message(QueueUrl=url, MessageBody="x")
    _denied(lambda: sqs.get_queue_attributes(QueueUrl=url))
    assert "permissions boundary" in _last(gw)["reason"]


def test_queue_policy_grants_and_denies(env: Env, gw: Gateway) -> None:
    worker = _principal(env, gw)  # no identity policy at all
    url, arn = _queue(env)
    aws.client("sqs", env.moto).set_queue_attributes(QueueUrl=url, Attributes={
        "Policy": _doc(_allow("sqs:SendMessage", arn, Principal={"AWS": worker.arn}),
                       {"Effect": "Deny", "Principal": "*", "Action": "sqs:PurgeQueue",
                        "Resource": arn})})
    sqs = worker.client("sqs", gw)
    sqs.send_message(QueueUrl=url, MessageBody="x")
    assert _last(gw)["deciding"] == [f"resource policy 'resource:{arn}' Statement[0]"]
    _denied(lambda: sqs.purge_queue(QueueUrl=url))
    assert _last(gw)["decision"] == "ExplicitDeny"


def test_a_tls_only_queue_policy_lets_an_sdk_client_in(env: Env, gw: Gateway) -> None:
    # On AWS every SDK call is HTTPS (aws:SecureTransport true); the sandbox's plain HTTP
    # is the kit's transport, not the client's choice, so it must not trip such a policy.
    worker = _principal(env, gw, _allow("sqs:SendMessage", "*"))
    url, arn = _queue(env)
    aws.client("sqs", env.moto).set_queue_attributes(QueueUrl=url, Attributes={"Policy": _doc(
        {"Effect": "Deny", "Principal": "*", "Action": "sqs:*", "Resource": arn,
         "Condition": {"Bool": {"aws:SecureTransport": "false"}}})})
    worker.client("sqs", gw).send_message(QueueUrl=url, MessageBody="over TLS on AWS")
    assert _last(gw)["decision"] == "Allow"


# --- policy changes take effect on the very next call --------------------------------------


def test_detaching_a_policy_through_the_gateway_denies_the_next_call(env: Env,
                                                                    gw: Gateway) -> None:
    url, arn = _queue(env)
    iam = aws.client("iam", env.moto)
    policy = iam.create_policy(PolicyName=f"send-{next(_names)}",
                               PolicyDocument=_doc(_allow("sqs:SendMessage", arn)))
    policy_arn = policy["Policy"]["Arn"]
    worker = _principal(env, gw)
    iam.attach_role_policy(RoleName=worker.name, PolicyArn=policy_arn)
    operator = _principal(env, gw, _allow("iam:DetachRolePolicy", worker.arn, Condition={
        "ArnEquals": {"iam:PolicyARN": policy_arn}}), process="operator")
    sqs = worker.client("sqs", gw)
    sqs.send_message(QueueUrl=url, MessageBody="before")
    operator.client("iam", gw).detach_role_policy(RoleName=worker.name,
                                                  PolicyArn=policy_arn)
    _denied(lambda: sqs.send_message(QueueUrl=url, MessageBody="after"))  # no invalidate()


def test_deleting_an_inline_policy_denies_the_next_call(env: Env, gw: Gateway) -> None:
    url, arn = _queue(env)
    worker = _principal(env, gw, _allow("sqs:SendMessage", arn))
    sqs = worker.client("sqs", gw)
    sqs.send_message(QueueUrl=url, MessageBody="before")
    aws.client("iam", env.moto).delete_role_policy(RoleName=worker.name,
                                                   PolicyName="main")
    gw.invalidate()
    _denied(lambda: sqs.send_message(QueueUrl=url, MessageBody="after"))


# --- authentication and the admin API ------------------------------------------------------


def test_admin_api_is_refused_to_workload_credentials(env: Env, gw: Gateway) -> None:
    url, _ = _queue(env)
    worker = _principal(env, gw, _allow("sqs:*"))
    wire = query("sqs", {"Action": "ListQueues"}, key=worker.creds.access_key_id,
                 secret=worker.creds.secret_access_key, token=worker.creds.token,
                 host=gw.url.removeprefix("http://"), path="/moto-api/reset")
    assert requests.post(f"{gw.url}/moto-api/reset", data=wire.body, headers=wire.headers,
                         timeout=5).status_code == 403
    refused = _last(gw)
    assert (refused["action"], refused["decision"]) == ("moto-api", "ExplicitDeny")
    assert _authz(gw)[-1]["process"] == "worker-0"
    aws.client("sqs", env.moto).get_queue_attributes(QueueUrl=url)  # nothing was reset


def test_signatures_verify_through_toxiproxy(env: Env, gw: Gateway) -> None:
    """Workers reach the gateway through a Toxiproxy listener: another Host, same bytes."""
    url, arn = _queue(env)
    worker = _principal(env, gw, _allow("sqs:SendMessage", arn))
    proxy = env.sandbox.toxiproxy.proxy(f"gw-{next(_names)}", f"127.0.0.1:{gw.port}")
    via_proxy = aws.client("sqs", f"http://127.0.0.1:{proxy.port}", worker.creds)
    via_proxy.send_message(QueueUrl=url, MessageBody="x")
    assert _last(gw)["decision"] == "Allow"


def test_a_session_registered_without_its_role_arn_finds_its_role(env: Env,
                                                                  gw: Gateway) -> None:
    url, arn = _queue(env)
    worker = _principal(env, gw, _allow("sqs:SendMessage", arn))
    gw.register(worker.creds.access_key_id, "worker-1",
                secret_access_key=worker.creds.secret_access_key,
                principal_arn=assumed_role_arn(worker.arn, "worker-0-s"))
    worker.client("sqs", gw).send_message(QueueUrl=url, MessageBody="x")
    assert (_authz(gw)[-1]["process"], _last(gw)["decision"]) == ("worker-1", "Allow")


def test_an_iam_user_is_authorized_by_its_groups_policies(env: Env, gw: Gateway) -> None:
    url, arn = _queue(env)
    iam = aws.client("iam", env.moto)
    user, group = f"user-{next(_names)}", f"group-{next(_names)}"
    user_arn = iam.create_user(UserName=user)["User"]["Arn"]
    iam.create_group(GroupName=group)
    iam.add_user_to_group(GroupName=group, UserName=user)
    iam.put_group_policy(GroupName=group, PolicyName="send",
                         PolicyDocument=_doc(_allow("sqs:SendMessage", arn)))
    key = iam.create_access_key(UserName=user)["AccessKey"]
    gw.register(key["AccessKeyId"], "tool", secret_access_key=key["SecretAccessKey"],
                principal_arn=user_arn)
    sqs = aws.client("sqs", gw.url, aws.Credentials(key["AccessKeyId"],
                                                     key["SecretAccessKey"]))
    sqs.send_message(QueueUrl=url, MessageBody="x")
    assert _last(gw)["deciding"] == [f"identity policy 'group {group} inline:send' "
                                     "Statement[0]"]
    _denied(lambda: sqs.purge_queue(QueueUrl=url))


def test_bad_signature_and_unknown_key_are_refused(env: Env, gw: Gateway) -> None:
    worker = _principal(env, gw, _allow("sqs:*"))
    forged = aws.Credentials(worker.creds.access_key_id, "guessed", worker.creds.token)
    _denied(lambda: aws.client("sqs", gw.url, forged).list_queues(), "SignatureDoesNotMatch")
    _denied(lambda: aws.client("sqs", gw.url, aws.ADMIN).list_queues(), "InvalidClientTokenId")
    refused = [op.model_dump(exclude_unset=True) for op in gw.recorder.snapshot()
               if op.kind == "authn"]
    assert [(op["process"], op["value"]["error"]) for op in refused] == [
        ("worker-0", "SignatureDoesNotMatch"), ("unknown", "InvalidClientTokenId")]
    assert not _authz(gw)  # refused before authorization, never forwarded


def test_sqs_query_protocol_is_enforced_with_xml_errors(env: Env, gw: Gateway) -> None:
    url, arn = _queue(env)
    worker = _principal(env, gw, _allow("sqs:SendMessage", arn))
    creds = {"key": worker.creds.access_key_id, "secret": worker.creds.secret_access_key,
             "token": worker.creds.token, "host": gw.url.removeprefix("http://")}

    def post(action: str, **params: str) -> requests.Response:
        wire = query("sqs", {"Action": action, "Version": "2012-11-05", "QueueUrl": url,
                             **params}, **creds)
        return requests.post(gw.url + wire.path, data=wire.body, headers=wire.headers,
                             timeout=5)

    sent = post("SendMessageBatch", **{"SendMessageBatchRequestEntry.1.Id": "a",
                                       "SendMessageBatchRequestEntry.1.MessageBody": "x"})
    assert sent.status_code == 200 and b"<Id>a</Id>" in sent.content
    denied = post("ReceiveMessage")
    parsed = create_parser("query").parse({"status_code": denied.status_code,
                                           "headers": dict(denied.headers),
                                           "body": denied.content}, None)
    assert parsed["Error"]["Code"] == "AccessDenied"


# --- other services ------------------------------------------------------------------------


def test_assume_role_through_the_gateway_checks_trust_and_registers_the_session(
        env: Env, gw: Gateway) -> None:
    url, arn = _queue(env)
    iam = aws.client("iam", env.moto)
    caller = _principal(env, gw, _allow("sts:AssumeRole"))
    target = f"target-{next(_names)}"
    target_arn = iam.create_role(RoleName=target, AssumeRolePolicyDocument=_doc(
        {"Effect": "Allow", "Principal": {"AWS": caller.arn}, "Action": "sts:AssumeRole"}
    ))["Role"]["Arn"]
    iam.put_role_policy(RoleName=target, PolicyName="send",
                        PolicyDocument=_doc(_allow("sqs:SendMessage", arn)))
    untrusting = iam.create_role(RoleName=f"closed-{next(_names)}",
                                 AssumeRolePolicyDocument=_doc(
        {"Effect": "Allow", "Principal": {"AWS": aws.HARNESS_ARN},
         "Action": "sts:AssumeRole"}))["Role"]["Arn"]
    sts = caller.client("sts", gw)
    assert sts.get_caller_identity()["Arn"].startswith(f"arn:aws:sts::{ACCT}:assumed-role/")
    _denied(lambda: sts.assume_role(RoleArn=untrusting, RoleSessionName="xx"))
    out = sts.assume_role(RoleArn=target_arn, RoleSessionName="hop")["Credentials"]
    hop = aws.client("sqs", gw.url, aws.Credentials(out["AccessKeyId"], out["SecretAccessKey"],
                                                    out["SessionToken"]))
    hop.send_message(QueueUrl=url, MessageBody="as the target role")
    _denied(lambda: hop.get_queue_attributes(QueueUrl=url))
    sends = [op for op in _authz(gw) if op["value"]["action"] == "sqs:SendMessage"]
    assert sends[-1]["process"] == "worker-0"  # the new session is attributed to its caller
    assert sends[-1]["value"]["deciding"] == ["identity policy 'inline:send' Statement[0]"]
    # A session policy narrows the session: it must allow the call too.
    narrowed = sts.assume_role(RoleArn=target_arn, RoleSessionName="narrow",
                               Policy=_doc(_allow("sqs:ReceiveMessage")))["Credentials"]
    _denied(lambda: aws.client("sqs", gw.url, aws.Credentials(
        narrowed["AccessKeyId"], narrowed["SecretAccessKey"], narrowed["SessionToken"])
    ).send_message(QueueUrl=url, MessageBody="x"))
    assert "session policy" in _last(gw)["reason"]


def test_secret_by_name_is_authorized_on_its_full_arn(env: Env, gw: Gateway) -> None:
    admin = aws.client("secretsmanager", env.moto)
    name = f"app/db-{next(_names)}"
    arn = admin.create_secret(Name=name, SecretString="pw")["ARN"]
    other = admin.create_secret(Name=f"other-{next(_names)}", SecretString="x")["ARN"]
    secrets = _principal(env, gw, _allow("secretsmanager:GetSecretValue", arn)).client(
        "secretsmanager", gw)
    assert secrets.get_secret_value(SecretId=name)["SecretString"] == "pw"
    assert _last(gw)["resource"] == arn
    _denied(lambda: secrets.get_secret_value(SecretId=other), "AccessDeniedException")


def test_s3_object_access_is_scoped_to_its_prefix(env: Env, gw: Gateway) -> None:
    bucket = f"bucket-{next(_names)}"
    aws.client("s3", env.moto).create_bucket(Bucket=bucket)
    s3 = _principal(env, gw, _allow(["s3:PutObject", "s3:GetObject"],
                                    f"arn:aws:s3:::{bucket}/in/*")).client("s3", gw)
    s3.put_object(Bucket=bucket, Key="in/a b.txt", Body=b"data")
    assert s3.get_object(Bucket=bucket, Key="in/a b.txt")["Body"].read() == b"data"
    assert s3.head_object(Bucket=bucket, Key="in/a b.txt")["ContentLength"] == 4
    _denied(lambda: s3.put_object(Bucket=bucket, Key="out/x", Body=b"x"))
    _denied(lambda: s3.list_objects_v2(Bucket=bucket))


def test_iam_and_rds_calls_are_enforced(env: Env, gw: Gateway) -> None:
    reader = _principal(env, gw, _allow("iam:GetRole"), _allow("rds:DescribeDBInstances"))
    reader.client("iam", gw).get_role(RoleName=reader.name)
    assert _last(gw)["resource"] == reader.arn  # with its path, as AWS names it
    _denied(lambda: reader.client("iam", gw).delete_role(RoleName=reader.name))
    reader.client("rds", gw).describe_db_instances()
    _denied(lambda: reader.client("rds", gw).delete_db_instance(DBInstanceIdentifier="db"))
    assert _last(gw)["resource"] == f"arn:aws:rds:us-east-1:{ACCT}:db:db"


def test_every_decision_is_recorded_under_its_process(env: Env, gw: Gateway) -> None:
    url, arn = _queue(env)
    producer = _principal(env, gw, _allow("sqs:SendMessage", arn), process="producer")
    worker = _principal(env, gw, _allow(["sqs:ReceiveMessage", "sqs:DeleteMessage"], arn))
    producer.client("sqs", gw).send_message(QueueUrl=url, MessageBody="x")
    sqs = worker.client("sqs", gw)
    msg = sqs.receive_message(QueueUrl=url)["Messages"][0]
    sqs.delete_message(QueueUrl=url, ReceiptHandle=msg["ReceiptHandle"])
    _denied(lambda: sqs.send_message(QueueUrl=url, MessageBody="y"))
    assert [(op["process"], op["value"]["action"], op["value"]["decision"])
            for op in _authz(gw)] == [
        ("producer", "sqs:SendMessage", "Allow"), ("worker-0", "sqs:ReceiveMessage", "Allow"),
        ("worker-0", "sqs:DeleteMessage", "Allow"), ("worker-0", "sqs:SendMessage",
                                                     "ImplicitDeny")]


# --- the iam_deny fault --------------------------------------------------------------------


def test_iam_deny_denies_the_role_until_healed(env: Env, gw: Gateway) -> None:
    url, arn = _queue(env)
    worker = _principal(env, gw, _allow("sqs:*", arn))
    sqs = worker.client("sqs", gw)
    fault = make_fault(gw, "iam_deny", "role.worker", {"actions": ["sqs:SendMessage"]},
                       roles={"role.worker": worker.arn})
    detail = fault.start()
    assert detail["policy"] == "kit-revoke" and detail["target"] == worker.arn
    _denied(lambda: sqs.send_message(QueueUrl=url, MessageBody="x"))
    assert _last(gw)["decision"] == "ExplicitDeny"
    assert _last(gw)["deciding"] == ["identity policy 'inline:kit-revoke' Statement[0] "
                                     "(Sid 'KitRevoke')"]
    sqs.get_queue_attributes(QueueUrl=url)  # only the named actions are denied
    fault.window()
    fault.heal()
    sqs.send_message(QueueUrl=url, MessageBody="y")
    fault.heal()  # healing twice is harmless
