"""SQS behaviours the scenarios rely on: FIFO order, group locking and deduplication,
visibility timeouts, receive counts, redrive to a dead-letter queue, one receiver per
message. Each probe makes its own queues (unique names) and waits only as long as the
behaviour takes (bounded)."""

from __future__ import annotations

import json
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from kit.probes import Behaviour, Clients, Observation

GUIDE = "Amazon SQS Developer Guide"


def _queue(sqs: Any, fifo: bool = False, **attributes: str) -> str:
    name = f"probe-{uuid.uuid4().hex[:12]}" + (".fifo" if fifo else "")
    if fifo:
        attributes["FifoQueue"] = "true"
    return sqs.create_queue(QueueName=name, Attributes=attributes)["QueueUrl"]


def _receive(sqs: Any, url: str, count: int = 1, wait: int = 0, visibility: int | None = None,
             ) -> list[dict[str, Any]]:
    extra = {} if visibility is None else {"VisibilityTimeout": visibility}
    return sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=count, WaitTimeSeconds=wait,
                               AttributeNames=["All"], **extra).get("Messages", [])


def _arn(sqs: Any, url: str) -> str:
    return sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["QueueArn"])[
        "Attributes"]["QueueArn"]


def fifo_order(clients: Clients) -> Observation:
    sqs = clients("sqs")
    url = _queue(sqs, fifo=True)
    sent = [str(n) for n in range(10)]
    for body in sent:
        sqs.send_message(QueueUrl=url, MessageBody=body, MessageGroupId="g",
                         MessageDeduplicationId=body)
    got: list[str] = []
    deadline = time.monotonic() + 10
    while len(got) < len(sent) and time.monotonic() < deadline:
        for message in _receive(sqs, url, count=3, wait=1):
            got.append(message["Body"])
            sqs.delete_message(QueueUrl=url, ReceiptHandle=message["ReceiptHandle"])
    return Observation(got == sent, f"sent {' '.join(sent)}, received {' '.join(got)}")


def fifo_group_lock(clients: Clients) -> Observation:
    sqs = clients("sqs")
    url = _queue(sqs, fifo=True)
    for body in ("first", "second"):
        sqs.send_message(QueueUrl=url, MessageBody=body, MessageGroupId="g",
                         MessageDeduplicationId=body)
    first = _receive(sqs, url, visibility=30)
    meanwhile = _receive(sqs, url, count=10, wait=1)
    bodies = [m["Body"] for m in meanwhile]
    return Observation([m["Body"] for m in first] == ["first"] and not meanwhile,
                       f"with 'first' in flight, a second receive got {bodies or 'nothing'}")


def fifo_deduplication(clients: Clients) -> Observation:
    sqs = clients("sqs")
    url = _queue(sqs, fifo=True)
    sqs.send_message(QueueUrl=url, MessageBody="original", MessageGroupId="g",
                     MessageDeduplicationId="same")
    for message in _receive(sqs, url, wait=1):
        sqs.delete_message(QueueUrl=url, ReceiptHandle=message["ReceiptHandle"])
    sqs.send_message(QueueUrl=url, MessageBody="duplicate", MessageGroupId="g",
                     MessageDeduplicationId="same")
    again = [m["Body"] for m in _receive(sqs, url, count=10, wait=1)]
    return Observation(not again, "a duplicate sent after the original was deleted was "
                       + (f"delivered ({again})" if again else "accepted, not delivered"))


def _delete(sqs: Any, url: str, handle: str) -> str | None:
    """The error code a delete with `handle` is refused with, or None if it is accepted."""
    try:
        sqs.delete_message(QueueUrl=url, ReceiptHandle=handle)
    except sqs.exceptions.ClientError as error:
        return str(error.response["Error"]["Code"])
    return None


def _said(code: str | None) -> str:
    return f"refused ({code})" if code else "accepted"


def fifo_expired_receipt_handle(clients: Clients) -> Observation:
    sqs = clients("sqs")
    url = _queue(sqs, fifo=True)
    sqs.send_message(QueueUrl=url, MessageBody="m", MessageGroupId="g",
                     MessageDeduplicationId="m")
    first = _receive(sqs, url, wait=1, visibility=1)
    if not first:
        return Observation(False, "the message sent was not received")
    deadline = time.monotonic() + 8
    while time.monotonic() < deadline and sqs.get_queue_attributes(
            QueueUrl=url, AttributeNames=["ApproximateNumberOfMessages"])["Attributes"][
            "ApproximateNumberOfMessages"] == "0":
        time.sleep(0.05)  # polling for the lapse: the state probed, bounded
    lapsed = _delete(sqs, url, first[0]["ReceiptHandle"])
    again = _receive(sqs, url, wait=1, visibility=30)
    superseded = _delete(sqs, url, first[0]["ReceiptHandle"]) if again else None
    if again and superseded:
        sqs.delete_message(QueueUrl=url, ReceiptHandle=again[0]["ReceiptHandle"])
    return Observation(bool(lapsed and superseded),
                       f"a delete with the handle of a lapsed receive: {_said(lapsed)}; with "
                       "it once the message was received again: "
                       + (_said(superseded) if again else "(it was not received again)"))


def visibility_timeout(clients: Clients) -> Observation:
    sqs = clients("sqs")
    url = _queue(sqs)
    sqs.send_message(QueueUrl=url, MessageBody="m")
    if not _receive(sqs, url, wait=1, visibility=2):
        return Observation(False, "the message sent was not received")
    received = time.monotonic()
    hidden = not _receive(sqs, url, wait=1)
    back = None
    while back is None and time.monotonic() - received < 8:
        if _receive(sqs, url, wait=1):
            back = time.monotonic() - received
    # AWS states no precision: back within 1.5 s of its timeout counts (the detail says when).
    ok = hidden and back is not None and 1.95 <= back <= 3.5
    return Observation(ok, f"hidden during its 2 s timeout: {hidden}; visible again after "
                       + ("never (8 s)" if back is None else f"{back:.1f} s"))


def release_with_zero_visibility(clients: Clients) -> Observation:
    sqs = clients("sqs")
    url = _queue(sqs)
    sqs.send_message(QueueUrl=url, MessageBody="m")
    first = _receive(sqs, url, wait=1, visibility=30)
    if not first:
        return Observation(False, "the message sent was not received")
    sqs.change_message_visibility(QueueUrl=url, ReceiptHandle=first[0]["ReceiptHandle"],
                                  VisibilityTimeout=0)
    again = _receive(sqs, url, wait=1)
    return Observation(bool(again), "released with ChangeMessageVisibility(0): "
                       + ("received again at once" if again else "not received within 1 s"))


def released_waits_its_turn(clients: Clients) -> Observation:
    sqs = clients("sqs")
    url = _queue(sqs)
    for body in "ABCD":
        sqs.send_message(QueueUrl=url, MessageBody=body)
    order = []
    for _ in range(4):
        got = _receive(sqs, url, wait=1, visibility=30)
        if not got:
            break
        order.append(got[0]["Body"])
        handle = got[0]["ReceiptHandle"]
        if got[0]["Body"] == "A":  # released at once, as a worker releases poison
            sqs.change_message_visibility(QueueUrl=url, ReceiptHandle=handle,
                                          VisibilityTimeout=0)
        else:
            sqs.delete_message(QueueUrl=url, ReceiptHandle=handle)
    others = [body for body in order if body != "A"]
    return Observation(bool(others), f"A released after each receive; four receives got "
                       f"{' '.join(order)}")


def receive_count(clients: Clients) -> Observation:
    sqs = clients("sqs")
    url = _queue(sqs)
    sqs.send_message(QueueUrl=url, MessageBody="m")
    counts = []
    for _ in range(3):
        got = _receive(sqs, url, wait=1, visibility=0)
        counts.append(int(got[0]["Attributes"]["ApproximateReceiveCount"]) if got else 0)
    return Observation(counts == [1, 2, 3], f"ApproximateReceiveCount on three receives: "
                       f"{counts}")


def redrive_to_dlq(clients: Clients) -> Observation:
    sqs = clients("sqs")
    dlq = _queue(sqs)
    url = _queue(sqs, RedrivePolicy=json.dumps(
        {"deadLetterTargetArn": _arn(sqs, dlq), "maxReceiveCount": 2}))
    sqs.send_message(QueueUrl=url, MessageBody="poison")
    receives = 0
    for _ in range(4):
        receives += len(_receive(sqs, url, wait=1, visibility=0))
    moved = _receive(sqs, dlq, wait=1)
    count = moved[0]["Attributes"].get("ApproximateReceiveCount") if moved else None
    return Observation(receives == 2 and len(moved) == 1,
                       f"maxReceiveCount 2: received {receives} times from the source, "
                       f"{'then in the DLQ' if moved else 'never in the DLQ'}"
                       + (f" (its receive count there: {count})" if moved else ""))


def one_receiver(clients: Clients) -> Observation:
    sqs = clients("sqs")
    url = _queue(sqs)
    for start in range(0, 40, 10):
        sqs.send_message_batch(QueueUrl=url, Entries=[
            {"Id": str(n), "MessageBody": str(n)} for n in range(start, start + 10)])

    def drain(_: int) -> list[str]:
        return [m["MessageId"] for _ in range(6)
                for m in _receive(sqs, url, count=10, visibility=30)]

    with ThreadPoolExecutor(max_workers=8) as pool:
        ids = [i for got in pool.map(drain, range(8)) for i in got]
    twice = len(ids) - len(set(ids))
    return Observation(twice == 0, f"8 concurrent receivers, 40 messages: {len(set(ids))} "
                       f"received, {twice} handed to two receivers")


BEHAVIOURS = (
    Behaviour("sqs.fifo_order", "FIFO: order within a message group", f"{GUIDE}, 'Message "
              "ordering': messages within a message group are received in the order they "
              "were sent", fifo_order),
    Behaviour("sqs.fifo_group_lock", "FIFO: one message of a group in flight", f"{GUIDE}, "
              "'FIFO queue logic': you can't receive messages with the same message group ID "
              "while a message of that group is in flight", fifo_group_lock),
    Behaviour("sqs.fifo_deduplication", "FIFO: 5-minute deduplication", "SendMessage API, "
              "MessageDeduplicationId: a message with an ID sent in the last 5 minutes is "
              "accepted but not delivered", fifo_deduplication),
    Behaviour("sqs.fifo_expired_receipt_handle", "FIFO: an expired receipt handle cannot "
              "delete", "AWS Knowledge Center, 'ReceiptHandleIsInvalid or "
              "InvalidParameterValue error when I delete messages': the receipt handle "
              "expires after the visibility timeout (old handles might work only on standard "
              "queues)", fifo_expired_receipt_handle),
    Behaviour("sqs.visibility_timeout", "visibility timeout hides, then returns", f"{GUIDE}, "
              "'Amazon SQS visibility timeout': a received message is hidden for the timeout, "
              "then visible again if not deleted", visibility_timeout),
    Behaviour("sqs.release_with_zero_visibility", "ChangeMessageVisibility(0) releases",
              "ChangeMessageVisibility API: a timeout of 0 makes the message visible "
              "immediately", release_with_zero_visibility),
    Behaviour("sqs.released_waits_its_turn", "standard: a released message does not starve "
              "the others", f"{GUIDE}, 'Queue types' (best-effort ordering) and 'short "
              "polling' (a receive samples a subset of servers): a message released with "
              "ChangeMessageVisibility(0) is one of the visible messages, not always the next "
              "(the kit's reading; kit/sandbox/fidelity/sqs.py)", released_waits_its_turn),
    Behaviour("sqs.receive_count", "ApproximateReceiveCount counts receives",
              "ReceiveMessage API, ApproximateReceiveCount: the number of times a message "
              "has been received without being deleted", receive_count),
    Behaviour("sqs.redrive_to_dlq", "redrive to the DLQ after maxReceiveCount", f"{GUIDE}, "
              "'Using dead-letter queues': when the receive count exceeds maxReceiveCount, "
              "the message moves to the dead-letter queue", redrive_to_dlq),
    Behaviour("sqs.one_receiver", "a message goes to one receiver at a time", f"{GUIDE}, "
              "'Amazon SQS visibility timeout': the timeout prevents other consumers from "
              "receiving the message again", one_receiver),
)
