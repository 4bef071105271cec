"""SigV4 verification against requests signed by botocore, and refusals by the gateway."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest

from kit.gateway import sigv4
from kit.gateway.server import Gateway
from kit.recorder import Recorder
from tests.unit.gateway.wire import KEY, SECRET, Wire, capture, query


def _verify(wire: Wire, secret: str = SECRET, now: datetime | None = None) -> None:
    auth = sigv4.parse_authorization(wire.headers["authorization"])
    assert auth is not None
    sigv4.verify(auth, secret, wire.method, wire.path, wire.headers, wire.body, now=now)


def _code(wire: Wire, secret: str = SECRET, now: datetime | None = None) -> str:
    with pytest.raises(sigv4.AuthFailure) as failure:
        _verify(wire, secret, now)
    return failure.value.code


# Requests are signed inside the test, not at collection: a signature is only valid for
# 15 minutes, and a long test session would otherwise find them expired.
SIGNED = {
    "sqs-json": lambda: capture("sqs", "send_message", QueueUrl="http://x/123456789012/q",
                                MessageBody="hi"),
    "sqs-session": lambda: capture("sqs", "get_queue_attributes", token="session-token",
                                   QueueUrl="http://x/123456789012/q", AttributeNames=["All"]),
    "sts": lambda: capture("sts", "get_caller_identity"),
    "iam": lambda: capture("iam", "get_role", RoleName="r"),
    "rds": lambda: capture("rds", "describe_db_instances", DBInstanceIdentifier="db1"),
    "secretsmanager": lambda: capture("secretsmanager", "get_secret_value", SecretId="app/db"),
    "s3-put": lambda: capture("s3", "put_object", Bucket="b", Key="dir/a b+c~é", Body=b"data"),
    "s3-list": lambda: capture("s3", "list_objects_v2", Bucket="b", Prefix="a/b c"),
    "sqs-query": lambda: query("sqs", {"Action": "SendMessage",
                                       "QueueUrl": "http://x/123456789012/q",
                                       "MessageBody": "a&b=c", "Version": "2012-11-05"}),
}


@pytest.mark.parametrize("name", list(SIGNED))
def test_botocore_signatures_verify(name: str) -> None:
    _verify(SIGNED[name]())


def test_wrong_secret_does_not_match() -> None:
    wire = capture("sqs", "send_message", QueueUrl="http://x/1/q", MessageBody="hi")
    assert _code(wire, secret="not-the-secret") == "SignatureDoesNotMatch"


def test_tampered_body_does_not_match() -> None:
    wire = capture("sqs", "send_message", QueueUrl="http://x/1/q", MessageBody="pay 1")
    tampered = dataclasses.replace(wire, body=wire.body.replace(b"pay 1", b"pay 9"))
    assert _code(tampered) == "SignatureDoesNotMatch"


def test_tampered_s3_body_is_caught_by_the_declared_hash() -> None:
    wire = capture("s3", "put_object", Bucket="b", Key="k", Body=b"data")
    tampered = dataclasses.replace(wire, body=b"evil")
    assert _code(tampered) == "XAmzContentSHA256Mismatch"


def test_tampered_signed_header_and_path_do_not_match() -> None:
    wire = capture("sqs", "send_message", QueueUrl="http://x/1/q", MessageBody="hi")
    other_target = {**wire.headers, "x-amz-target": "AmazonSQS.PurgeQueue"}
    assert _code(dataclasses.replace(wire, headers=other_target)) == "SignatureDoesNotMatch"
    assert _code(dataclasses.replace(wire, path="/other")) == "SignatureDoesNotMatch"


def test_missing_signed_header_and_stale_date_are_refused() -> None:
    wire = capture("sqs", "send_message", QueueUrl="http://x/1/q", MessageBody="hi")
    no_target = {k: v for k, v in wire.headers.items() if k != "x-amz-target"}
    assert _code(dataclasses.replace(wire, headers=no_target)) == "SignatureDoesNotMatch"
    later = datetime.now(UTC) + timedelta(minutes=20)
    assert _code(wire, now=later) == "SignatureDoesNotMatch"


def test_malformed_authorization_is_an_incomplete_signature() -> None:
    with pytest.raises(sigv4.AuthFailure) as failure:
        sigv4.parse_authorization("AWS4-HMAC-SHA256 Credential=AKID/20250101/us-east-1")
    assert failure.value.code == "IncompleteSignature"
    assert sigv4.parse_authorization(None) is None


def test_authorization_header_parts() -> None:
    wire = capture("sqs", "list_queues")
    auth = sigv4.parse_authorization(wire.headers["authorization"])
    assert auth is not None
    assert (auth.access_key_id, auth.region, auth.service) == (KEY, "us-east-1", "sqs")
    assert "host" in auth.signed_headers and "x-amz-date" in auth.signed_headers


# --- refusals by the gateway (never forwarded: the upstream is not even running) ---------


@pytest.fixture
def gateway() -> Iterator[Gateway]:
    with Gateway("http://127.0.0.1:9", Recorder()) as gw:
        yield gw


def _handle(gw: Gateway, wire: Wire) -> tuple[int, dict[str, str], bytes]:
    return gw.handle(wire.method, wire.path, wire.headers, wire.body)


def test_unknown_key_is_refused_and_recorded(gateway: Gateway) -> None:
    status, headers, _ = _handle(gateway, capture("sqs", "list_queues", key="AKIDUNKNOWN"))
    assert status == 403 and headers["x-amzn-query-error"] == "InvalidClientTokenId;Sender"
    op, = gateway.recorder.snapshot()
    assert (op.process, op.kind) == ("unknown", "authn")
    assert op.value.error == "InvalidClientTokenId"
    assert op.value.action == "sqs:ListQueues"


def test_wrong_secret_and_token_are_refused(gateway: Gateway) -> None:
    gateway.register(KEY, "worker-0", secret_access_key=SECRET,
                     principal_arn="arn:aws:sts::123456789012:assumed-role/r/s",
                     session_token="the-token")
    wrong_secret = capture("sqs", "list_queues", secret="guess", token="the-token")
    wrong_token = capture("sqs", "list_queues", token="another-token")
    assert _handle(gateway, wrong_secret)[1]["x-amzn-query-error"] == \
        "SignatureDoesNotMatch;Sender"
    assert _handle(gateway, wrong_token)[1]["x-amzn-query-error"] == \
        "InvalidClientTokenId;Sender"
    assert [op.value.error for op in gateway.recorder.snapshot()] == [
        "SignatureDoesNotMatch", "InvalidClientTokenId"]
    assert {op.process for op in gateway.recorder.snapshot()} == {"worker-0"}


def test_unsigned_request_is_refused(gateway: Gateway) -> None:
    status, _, body = gateway.handle("POST", "/", {"host": "h", "x-amz-target":
                                                   "secretsmanager.ListSecrets"}, b"{}")
    assert status == 403 and b"MissingAuthenticationTokenException" in body
    assert gateway.recorder.snapshot()[0].process == "anonymous"


def test_registering_a_secret_without_a_principal_is_a_usage_error(gateway: Gateway) -> None:
    with pytest.raises(Exception, match="principal_arn"):
        gateway.register(KEY, "worker-0", secret_access_key=SECRET)
