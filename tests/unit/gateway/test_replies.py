"""Error replies parse, with botocore's own parsers, to the codes real AWS clients see."""

from __future__ import annotations

import pytest
from botocore.parsers import create_parser

from kit.gateway import replies


def _code(protocol: str, reply: replies.Reply) -> str:
    status, headers, body = reply
    parsed = create_parser(protocol).parse(
        {"status_code": status, "headers": {k.lower(): v for k, v in headers.items()},
         "body": body}, None)
    return parsed["Error"]["Code"]


@pytest.mark.parametrize("code", ["AccessDenied", "InvalidClientTokenId",
                                  "SignatureDoesNotMatch", "MissingAuthenticationToken"])
def test_sqs_json_errors_carry_the_query_code(code: str) -> None:
    reply = replies.error("sqs", "json", code, "no")
    assert reply[0] in (400, 403)
    assert _code("json", reply) == code


@pytest.mark.parametrize("service", ["sqs", "iam", "sts", "rds"])
def test_query_protocol_access_denied(service: str) -> None:
    reply = replies.error(service, "query", "AccessDenied", "User: x is not <allowed> & more")
    assert reply[0] == 403 and _code("query", reply) == "AccessDenied"


def test_secrets_manager_uses_its_json_names() -> None:
    assert _code("json", replies.error("secretsmanager", "json", "AccessDenied", "no")) == \
        "AccessDeniedException"
    assert _code("json", replies.error("secretsmanager", "json", "InvalidClientTokenId",
                                       "no")) == "UnrecognizedClientException"


def test_s3_errors_and_head_replies() -> None:
    assert _code("rest-xml", replies.error("s3", "rest-xml", "AccessDenied", "no")) == \
        "AccessDenied"
    assert _code("rest-xml", replies.error("s3", "rest-xml", "InvalidClientTokenId",
                                           "no")) == "InvalidAccessKeyId"
    status, _, body = replies.error("s3", "rest-xml", "AccessDenied", "no", head=True)
    assert (status, body) == (403, b"")
