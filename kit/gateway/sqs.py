"""SQS wire formats: read the action and its fields from either protocol.

boto3 speaks SQS's JSON protocol (`X-Amz-Target: AmazonSQS.<Action>`); older clients use
the query protocol (form-encoded `Action=<Action>`, XML replies). The gateway handles both.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl, urlencode


@dataclass
class SqsRequest:
    """An SQS API call as the gateway sees it."""

    action: str
    protocol: str  # "json" | "query"
    params: dict[str, Any] = field(default_factory=dict)

    def entries(self) -> list[dict[str, Any]]:
        """Batch entries (or the single call as one entry), with ReceiptHandle etc."""
        if self.action.endswith("Batch"):
            if self.protocol == "json":
                return list(self.params.get("Entries", []))
            return _query_entries(self.params)
        return [self.params]


def parse(headers: dict[str, str], body: bytes) -> SqsRequest | None:
    """The SQS request in `body`, or None when it is not an SQS call."""
    target = headers.get("x-amz-target", "")
    if target.startswith("AmazonSQS."):
        params = json.loads(body or b"{}")
        return SqsRequest(target.split(".", 1)[1], "json", params)
    if body and b"Action=" in body:
        params = dict(parse_qsl(body.decode(errors="replace")))
        if "QueueUrl" in params or params.get("Action", "").endswith("Queue"):
            return SqsRequest(params.get("Action", ""), "query", params)
    return None


def _query_entries(params: dict[str, Any]) -> list[dict[str, Any]]:
    entries: dict[str, dict[str, Any]] = {}
    for key, value in params.items():
        match = re.match(r"\w+BatchRequestEntry\.(\d+)\.(\w+)", key)
        if match:
            entries.setdefault(match.group(1), {})[match.group(2)] = value
    return [entries[k] for k in sorted(entries, key=int)]


RECORDED_ATTRIBUTES = ("ApproximateReceiveCount", "MessageGroupId")


def with_receive_count(request: SqsRequest, body: bytes) -> bytes:
    """The ReceiveMessage body, also asking for the receive count and the FIFO group (for
    the history; a standard queue's messages simply have no group)."""
    params = dict(request.params)
    if request.protocol == "json":
        names = list(params.get("MessageSystemAttributeNames", []))
        if "All" not in names:
            names += [a for a in RECORDED_ATTRIBUTES if a not in names]
        params["MessageSystemAttributeNames"] = names
        return json.dumps(params).encode()
    for name in RECORDED_ATTRIBUTES:
        if name not in params.values() and "All" not in params.values():
            params[f"AttributeName.{len(params) + 1}"] = name
    return urlencode(params).encode()


def received(request: SqsRequest, status: int, body: bytes) -> list[dict[str, Any]]:
    """Messages in a ReceiveMessage reply: message_id, receipt, receive_count, body."""
    if status != 200:
        return []
    if request.protocol == "json":
        messages = json.loads(body or b"{}").get("Messages", [])
        return [{"message_id": m["MessageId"], "receipt": m["ReceiptHandle"],
                 "receive_count": int(m.get("Attributes", {}).get("ApproximateReceiveCount", 0)),
                 "group": m.get("Attributes", {}).get("MessageGroupId"),
                 "body": m.get("Body", "")} for m in messages]
    text = body.decode(errors="replace")
    out = []
    for chunk in re.findall(r"<Message>(.*?)</Message>", text, re.S):
        def tag(name: str, chunk: str = chunk) -> str:
            found = re.search(rf"<{name}>(.*?)</{name}>", chunk, re.S)
            return found.group(1) if found else ""
        count = re.search(r"<Name>ApproximateReceiveCount</Name>\s*<Value>(\d+)</Value>", chunk)
        group = re.search(r"<Name>MessageGroupId</Name>\s*<Value>([^<]*)</Value>", chunk)
        out.append({"message_id": tag("MessageId"), "receipt": tag("ReceiptHandle"),
                    "receive_count": int(count.group(1)) if count else 0,
                    "group": group.group(1) if group else None, "body": tag("Body")})
    return out


def succeeded(request: SqsRequest, status: int, body: bytes) -> list[dict[str, Any]]:
    """The entries of a call that took effect: a batch answers 200 with each entry in
    `Successful` or `Failed` (e.g. an expired receipt handle), a single call by its status."""
    if status != 200:
        return []
    if not request.action.endswith("Batch"):
        return [request.params]
    if request.protocol == "json":
        ok = {e.get("Id") for e in json.loads(body or b"{}").get("Successful", [])}
    else:
        text = body.decode(errors="replace")
        ok = set(re.findall(r"<\w+BatchResultEntry>\s*<Id>([^<]*)</Id>", text))
    return [e for e in request.entries() if e.get("Id") in ok]


def success_reply(request: SqsRequest) -> tuple[int, dict[str, str], bytes]:
    """A reply that says the call succeeded (used when a fault swallows a call)."""
    if request.protocol == "json":
        body: dict[str, Any] = {}
        if request.action.endswith("Batch"):
            body = {"Successful": [{"Id": e.get("Id")} for e in request.entries()],
                    "Failed": []}
        return 200, {"Content-Type": "application/x-amz-json-1.0"}, json.dumps(body).encode()
    xml = (f"<{request.action}Response><ResponseMetadata><RequestId>kit</RequestId>"
           f"</ResponseMetadata></{request.action}Response>")
    return 200, {"Content-Type": "text/xml"}, xml.encode()
