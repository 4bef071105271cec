"""The gateway's size limits (kit/gateway/limits.py): AWS's documented limits, decided from
the headers before a body is read, and SQS's message size once it is."""

from __future__ import annotations

import json

from kit.gateway import limits, sqs

SIG = ("AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20261201/us-east-1/{}/aws4_request, "
       "SignedHeaders=host;x-amz-date, Signature=00")


def _headers(service: str, **more: str) -> dict[str, str]:
    return {"authorization": SIG.format(service), **more}


def test_the_service_comes_from_the_signature() -> None:
    assert limits.service_of(_headers("sqs")) == "sqs"
    assert limits.service_of({}) == ""


def test_a_body_within_its_limit_is_read() -> None:
    assert limits.check_length("sqs", _headers("sqs", **{"content-length": "1200"})) is None
    assert limits.check_length("sqs", _headers("sqs")) is None  # no body
    # A legal 1 MiB message, every character JSON-escaped as \u0000, still fits.
    assert limits.check_length("sqs", {"content-length": str(6 * limits.MiB + 100)}) is None


def test_an_sqs_body_over_its_limit_is_413() -> None:
    refusal = limits.check_length("sqs", {"content-length": str(200 * limits.MiB)})
    assert refusal is not None
    assert (refusal.code, refusal.status) == ("RequestEntityTooLarge", 413)
    assert str(200 * limits.MiB) in refusal.message


def test_an_s3_body_over_its_limit_is_entity_too_large() -> None:
    refusal = limits.check_length("s3", {"content-length": str(limits.S3_MAX_BODY + 1)})
    assert refusal is not None and (refusal.code, refusal.status) == ("EntityTooLarge", 400)


def test_other_services_are_bounded_too() -> None:
    assert limits.check_length("iam", {"content-length": str(limits.OTHER_MAX_BODY)}) is None
    assert limits.check_length("iam", {"content-length": str(limits.OTHER_MAX_BODY + 1)})


def test_a_streamed_or_malformed_length_is_refused() -> None:
    chunked = limits.check_length("sqs", {"transfer-encoding": "chunked"})
    assert chunked is not None and (chunked.code, chunked.status) == \
        ("MissingContentLength", 411)
    bad = limits.check_length("sqs", {"content-length": "-5"})
    assert bad is not None and bad.status == 400


def _send(body: str, **attrs: object) -> sqs.SqsRequest:
    params: dict[str, object] = {"QueueUrl": "q", "MessageBody": body}
    if attrs:
        params["MessageAttributes"] = attrs
    return sqs.SqsRequest("SendMessage", "json", params)


def test_a_message_of_1_mib_is_accepted_one_byte_more_is_invalid() -> None:
    assert limits.check_sqs(_send("x" * limits.SQS_MAX_MESSAGE)) is None
    refusal = limits.check_sqs(_send("x" * (limits.SQS_MAX_MESSAGE + 1)))
    assert refusal is not None and refusal.code == "InvalidParameterValue"
    assert "shorter than 1048576 bytes" in refusal.message


def test_message_size_counts_bytes_and_attributes() -> None:
    assert limits.message_size({"MessageBody": "é"}) == 2
    attrs = {"a": {"DataType": "String", "StringValue": "v" * 100}}
    assert limits.message_size({"MessageBody": "", "MessageAttributes": attrs}) > 100
    over = _send("x" * (limits.SQS_MAX_MESSAGE - 50),
                 big={"DataType": "String", "StringValue": "v" * 100})
    assert limits.check_sqs(over) is not None


def test_a_batch_over_1_mib_in_total_is_batch_request_too_long() -> None:
    entries = [{"Id": str(i), "MessageBody": "x" * (limits.SQS_MAX_MESSAGE // 4)}
               for i in range(5)]
    batch = sqs.parse({"x-amz-target": "AmazonSQS.SendMessageBatch"},
                      json.dumps({"QueueUrl": "q", "Entries": entries}).encode())
    assert batch is not None
    refusal = limits.check_sqs(batch)
    assert refusal is not None and refusal.code == "BatchRequestTooLong"
    assert limits.check_sqs(sqs.SqsRequest("SendMessageBatch", "json",
                                           {"Entries": entries[:4]})) is None


def test_other_sqs_calls_are_not_sized() -> None:
    assert limits.check_sqs(sqs.SqsRequest("ReceiveMessage", "json", {"QueueUrl": "q"})) \
        is None
