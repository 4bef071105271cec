"""The SQS event a batch becomes, and what a function's response says to delete.

Shapes from the Lambda developer guide, "Using Lambda with Amazon SQS" (the example SQS
message event) and "Implementing partial batch responses" (batchItemFailures: when the
response is a success, a partial failure, or a complete failure).
"""

from __future__ import annotations

import base64
from dataclasses import dataclass
from typing import Any

EVENT_SOURCE = "aws:sqs"


def record(message: dict[str, Any], queue_arn: str, region: str) -> dict[str, Any]:
    """One SQS message (a ReceiveMessage entry with all attributes) as an event record."""
    return {
        "messageId": message["MessageId"],
        "receiptHandle": message["ReceiptHandle"],
        "body": message.get("Body", ""),
        "attributes": dict(message.get("Attributes") or {}),
        "messageAttributes": {name: _attribute(value) for name, value
                              in (message.get("MessageAttributes") or {}).items()},
        "md5OfBody": message.get("MD5OfBody", ""),
        "eventSource": EVENT_SOURCE,
        "eventSourceARN": queue_arn,
        "awsRegion": region,
    }


def _attribute(value: dict[str, Any]) -> dict[str, Any]:
    """A message attribute in the event's camelCase shape (binary values base64)."""
    binary = value.get("BinaryValue")
    out: dict[str, Any] = {"stringListValues": [], "binaryListValues": [],
                           "dataType": value.get("DataType", "String")}
    if "StringValue" in value:
        out["stringValue"] = value["StringValue"]
    if binary is not None:
        out["binaryValue"] = base64.b64encode(binary).decode() if isinstance(
            binary, bytes) else binary
    return out


def event(messages: list[dict[str, Any]], queue_arn: str, region: str) -> dict[str, Any]:
    """The invocation's event: one record per message of the batch, in receive order."""
    return {"Records": [record(m, queue_arn, region) for m in messages]}


@dataclass(frozen=True)
class Verdict:
    """What an invocation's outcome makes of its batch: the message ids to delete, and
    why the others stay (they become visible again after the visibility timeout)."""

    delete: frozenset[str]
    outcome: str  # "success" | "partial" | "failed"
    reason: str = ""


def verdict(batch: list[str], ok: bool, response: Any, report_failures: bool,
            error: str = "") -> Verdict:
    """The batch's fate. A failed invocation (an error, a timeout, a crash, a throttle)
    deletes nothing. A successful one deletes the whole batch, unless the mapping has
    ReportBatchItemFailures: then everything but the reported itemIdentifiers is deleted,
    a null/empty response or list is a complete success, and a malformed one (not an
    object, an itemIdentifier empty, null, missing or not in the batch) fails the whole
    batch ("Implementing partial batch responses")."""
    everything = frozenset(batch)
    if not ok:
        return Verdict(frozenset(), "failed", error or "invocation failed")
    if not report_failures or response is None:
        return Verdict(everything, "success")
    if not isinstance(response, dict):
        return Verdict(frozenset(), "failed", "response is not an object")
    failures = response.get("batchItemFailures")
    if not failures:
        return Verdict(everything, "success")
    if not isinstance(failures, list):
        return Verdict(frozenset(), "failed", "batchItemFailures is not a list")
    failed: set[str] = set()
    for item in failures:
        ident = item.get("itemIdentifier") if isinstance(item, dict) else None
        if not isinstance(ident, str) or not ident or ident not in everything:
            return Verdict(frozenset(), "failed",
                           f"invalid itemIdentifier {str(ident)[:80]!r}")
        failed.add(ident)
    return Verdict(everything - failed, "partial", f"{len(failed)} reported failed")
