"""Size limits of requests through the gateway, checked before a body is read (from its
Content-Length) and, for SQS, on the message sizes AWS documents once it is read.

AWS's documented limits:
- SQS: a message is at most 1 MiB, 1,048,576 bytes (SendMessage API Reference,
  MessageBody: "The maximum size is 1 MiB or 1,048,576 bytes"; raised from 256 KiB in
  2025), body and message attributes together; a SendMessageBatch's messages together are
  at most the same 1 MiB (the total payload; too long: BatchRequestTooLong). An over-long
  message is refused with InvalidParameterValue, 400.
- A request's size for SQS is not documented apart from its messages: the wire form of a
  legal 1 MiB payload is at most 6 times its size (JSON's `\\u0000` escapes; the query
  protocol's `%XX` triples), so Content-Length beyond that plus room for the other
  parameters cannot carry a legal call: 413, RequestEntityTooLarge.
- S3: one PUT may carry 5 GiB (EntityTooLarge, 400, beyond it). The gateway buffers a
  request whole to verify its signature, so it bounds S3 bodies at S3_MAX_BODY (a kit
  limit, far above what any scenario's workload writes: one JSON object per key).
- DynamoDB: "The total request size [of a BatchWriteItem] cannot exceed 16 MB" (API
  Reference, BatchWriteItem; an item is at most 400 KB, TransactWriteItems 4 MB): bounded at
  DYNAMODB_MAX_BODY.
- Every other API the gateway serves (IAM, STS, RDS, Secrets Manager: their largest
  documented parameters are policy documents of 131,072 characters and secrets of
  65,536 bytes) is bounded at OTHER_MAX_BODY.
- A request without a Content-Length that streams a body (Transfer-Encoding: chunked) is
  refused, as S3 refuses it: 411, MissingContentLength.
- Header blocks: AWS documents no limit for these APIs; the gateway refuses a request line
  and headers over MAX_HEADER_BYTES (431, before the rest is read), 10 times the largest
  header block an SDK sends with a session token.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from kit import aws
from kit.gateway import sqs

KiB, MiB = 1024, 1024 * 1024
SQS_MAX_MESSAGE = 1 * MiB  # bytes, one message or a batch's messages together
SQS_MAX_BODY = 6 * SQS_MAX_MESSAGE + 64 * KiB
S3_MAX_BODY = 16 * MiB
DYNAMODB_MAX_BODY = 16 * MiB + 64 * KiB
OTHER_MAX_BODY = 2 * MiB
MAX_HEADER_BYTES = 32 * KiB
_SERVICE = re.compile(r"Credential=[^/\s,]*/[^/\s,]*/[^/\s,]*/([^/\s,]+)/")


@dataclass(frozen=True)
class Refusal:
    """A request refused for its size: the AWS error code, its status and why."""

    code: str
    status: int
    message: str


def service_of(headers: dict[str, str]) -> str:
    """The service a request's signature names ("" when it has none)."""
    found = _SERVICE.search(headers.get("authorization", ""))
    return found.group(1) if found else ""


def region_of(headers: dict[str, str]) -> str:
    """The Region a request's signature names ("" when it has none)."""
    return aws.signed_region(headers.get("authorization", "")) or ""


def protocol_of(service: str, headers: dict[str, str]) -> str:
    """The wire protocol of a request, from its headers alone (its body is not read)."""
    if service == "s3":
        return "rest-xml"
    return "json" if headers.get("x-amz-target") else "query"


def max_body(service: str) -> int:
    """The largest Content-Length the gateway reads for `service`."""
    return {"sqs": SQS_MAX_BODY, "s3": S3_MAX_BODY,
            "dynamodb": DYNAMODB_MAX_BODY}.get(service, OTHER_MAX_BODY)


def check_length(service: str, headers: dict[str, str]) -> Refusal | None:
    """Refuse a body that is streamed, malformed or over the service's limit, unread."""
    if "transfer-encoding" in headers:
        return Refusal("MissingContentLength", 411,
                       "You must provide the Content-Length HTTP header (a streamed "
                       "Transfer-Encoding body is not accepted).")
    raw = headers.get("content-length", "0").strip() or "0"
    if not raw.isdigit():
        return Refusal("InvalidRequest", 400, f"Content-Length must be a number of bytes, "
                       f"got {raw[:32]!r}")
    length, limit = int(raw), max_body(service)
    if length > limit:
        code, status = ("EntityTooLarge", 400) if service == "s3" else \
            ("RequestEntityTooLarge", 413)
        return Refusal(code, status, f"Request body of {length} bytes is over the limit of "
                       f"{limit} bytes for {service or 'this service'}")
    return None


def check_sqs(request: sqs.SqsRequest) -> Refusal | None:
    """Refuse an SQS send whose message (or batch) is over SQS_MAX_MESSAGE, as SQS does."""
    if request.action == "SendMessage":
        size = message_size(request.params)
        if size > SQS_MAX_MESSAGE:
            return Refusal("InvalidParameterValue", 400,
                           "One or more parameters are invalid. Reason: Message must be "
                           f"shorter than {SQS_MAX_MESSAGE} bytes (it has {size}).")
    elif request.action == "SendMessageBatch":
        total = sum(message_size(entry) for entry in request.entries())
        if total > SQS_MAX_MESSAGE:
            return Refusal("BatchRequestTooLong", 400,
                           f"Batch requests cannot be longer than {SQS_MAX_MESSAGE} bytes. "
                           f"You have sent {total} bytes.")
    return None


def message_size(params: dict[str, Any]) -> int:
    """The bytes of a message as SQS counts them: its body and its attributes' names,
    types and values (JSON protocol: MessageAttributes; query: MessageAttribute.N.*)."""
    size = len(str(params.get("MessageBody", "")).encode())
    attributes = params.get("MessageAttributes")
    if isinstance(attributes, dict):
        size += len(json.dumps(attributes, ensure_ascii=False).encode())
    for key, value in params.items():
        if key.startswith("MessageAttribute."):
            size += len(str(value).encode())
    return size
