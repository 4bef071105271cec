"""SQS calls. botocore's own retries are off: callers retry, paced."""

from __future__ import annotations

import dataclasses
import logging
from typing import Iterable, Sequence

import boto3
from botocore.config import Config
from botocore.exceptions import ClientError

from . import settings as S

log = logging.getLogger("worker.sqs")

# Error codes meaning "this receipt handle no longer designates a message we
# hold" (deleted, or its visibility ran out). Anything else is treated as
# transient: the contract's refusals (AccessDenied, SignatureDoesNotMatch)
# and unreachable endpoints all clear by themselves.
_HANDLE_GONE = {
    "ReceiptHandleIsInvalid",
    "MessageNotInflight",
}


def error_code(exc: BaseException) -> str:
    if isinstance(exc, ClientError):
        code = exc.response.get("Error", {}).get("Code", "") or ""
        return code.rsplit(".", 1)[-1]
    return type(exc).__name__


def handle_gone(code: str, message: str = "") -> bool:
    code = code.rsplit(".", 1)[-1]
    if code in _HANDLE_GONE:
        return True
    # SQS reports an expired or stale receipt handle as InvalidParameterValue.
    return code == "InvalidParameterValue" and "receipt handle" in message.lower()


def error_message(exc: BaseException) -> str:
    if isinstance(exc, ClientError):
        return exc.response.get("Error", {}).get("Message", "") or ""
    return str(exc)


def describe(exc: BaseException) -> str:
    if isinstance(exc, ClientError):
        err = exc.response.get("Error", {})
        return f"{err.get('Code')}: {err.get('Message')}"
    return f"{type(exc).__name__}: {exc}"


@dataclasses.dataclass(eq=False)
class Hold:
    """A message this process received and has neither deleted nor given up."""

    receipt_handle: str
    message_id: str
    group_id: str
    body: str
    message_attributes: dict
    received_at: float
    visible_until: float  # monotonic; a conservative estimate
    last_extended: float
    done: bool = False  # deleted
    lost: bool = False  # its visibility may have run out: not ours any more

    @classmethod
    def from_message(cls, m: dict, requested_at: float) -> "Hold":
        attrs = m.get("Attributes") or {}
        return cls(
            receipt_handle=m["ReceiptHandle"],
            message_id=m["MessageId"],
            group_id=attrs.get("MessageGroupId", ""),
            body=m.get("Body", ""),
            message_attributes=m.get("MessageAttributes") or {},
            received_at=requested_at,
            visible_until=requested_at + S.VISIBILITY_TIMEOUT,
            last_extended=requested_at,
        )


def _client(settings: S.Settings, read_timeout: float, pool: int):
    config = Config(
        connect_timeout=S.SQS_CONNECT_TIMEOUT,
        read_timeout=read_timeout,
        retries={"mode": "standard", "total_max_attempts": 1},
        max_pool_connections=pool,
    )
    session = boto3.session.Session()
    return session.client(
        "sqs",
        region_name=settings.region,
        endpoint_url=settings.endpoint_url,
        config=config,
    )


def _chunks(items: Sequence, n: int = 10) -> Iterable[Sequence]:
    for i in range(0, len(items), n):
        yield items[i : i + n]


class Sqs:
    def __init__(self, settings: S.Settings):
        self.queue_url = settings.queue_url
        self.dlq_url = settings.dlq_url
        self._receiver = _client(settings, S.RECEIVE_WAIT + S.SQS_READ_TIMEOUT, 2)
        self._ops = _client(settings, S.SQS_READ_TIMEOUT, 16)

    def receive(self, max_messages: int, attempt_id: str) -> list[dict]:
        resp = self._receiver.receive_message(
            QueueUrl=self.queue_url,
            MaxNumberOfMessages=max_messages,
            WaitTimeSeconds=S.RECEIVE_WAIT,
            VisibilityTimeout=S.VISIBILITY_TIMEOUT,
            AttributeNames=["All"],
            MessageAttributeNames=["All"],
            ReceiveRequestAttemptId=attempt_id,
        )
        return resp.get("Messages") or []

    def set_visibility(self, holds: Sequence[Hold], timeout: int) -> dict[int, tuple[str, str]]:
        """Set the visibility of up to 10 held messages; return {index: (code, message)} of failures."""
        resp = self._ops.change_message_visibility_batch(
            QueueUrl=self.queue_url,
            Entries=[
                {"Id": str(i), "ReceiptHandle": h.receipt_handle, "VisibilityTimeout": timeout}
                for i, h in enumerate(holds)
            ],
        )
        return {int(f["Id"]): (f.get("Code", ""), f.get("Message", "")) for f in resp.get("Failed") or []}

    def release_handles(self, handles: Sequence[str]) -> None:
        """Make messages visible again (handles from a dead worker), in the given order."""
        for chunk in _chunks(list(handles)):
            self._ops.change_message_visibility_batch(
                QueueUrl=self.queue_url,
                Entries=[
                    {"Id": str(i), "ReceiptHandle": rh, "VisibilityTimeout": 0}
                    for i, rh in enumerate(chunk)
                ],
            )

    def delete(self, h: Hold) -> None:
        self._ops.delete_message(QueueUrl=self.queue_url, ReceiptHandle=h.receipt_handle)

    def dead_letter(self, h: Hold) -> None:
        """Copy a poison message, unchanged, to the DLQ.

        Deduplicated on the SQS message id, so a copy made again after a crash
        between this call and the delete does not show up twice.
        """
        params = {
            "QueueUrl": self.dlq_url,
            "MessageBody": h.body,
            "MessageGroupId": h.group_id or "poison",
            "MessageDeduplicationId": h.message_id[:128],
        }
        attrs = _copyable_attributes(h.message_attributes)
        if attrs:
            params["MessageAttributes"] = attrs
        self._ops.send_message(**params)


def _copyable_attributes(attrs: dict) -> dict:
    out = {}
    for name, value in attrs.items():
        entry = {"DataType": value.get("DataType", "String")}
        if "StringValue" in value:
            entry["StringValue"] = value["StringValue"]
        elif "BinaryValue" in value:
            entry["BinaryValue"] = value["BinaryValue"]
        else:
            continue
        out[name] = entry
    return out


chunks = _chunks
