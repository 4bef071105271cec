"""Views of a history that several checkers share: what was sent, what was recorded."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from kit.history import History, Op

TRAIL_CAP = 20


@dataclass(frozen=True)
class Sent:
    """What the producer sent, indexed for the checkers (all in send order)."""

    valid: dict[str, Op] = field(default_factory=dict)  # key -> first valid send op
    valid_message_ids: dict[str, str] = field(default_factory=dict)  # message_id -> key
    poison: list[Op] = field(default_factory=list)  # every poison send op
    by_message_id: dict[str, Op] = field(default_factory=dict)  # every send op
    # A send published to a topic -> the message ids SNS gave its copies on the queues.
    copies: dict[str, list[str]] = field(default_factory=dict)


def sent(history: History) -> Sent:
    """Index the sends that happened: valid messages by key (first send wins), poison in
    order."""
    out = Sent()
    for op in history.of_kind("send"):
        v = op.value
        out.by_message_id.setdefault(v.message_id, op)
        if v.valid:
            out.valid.setdefault(v.key, op)
            out.valid_message_ids[v.message_id] = v.key
        else:
            out.poison.append(op)
    # A message published to a topic reaches its queues under new message ids (SNS's
    # fan-out): each delivered copy stands for the send it came from.
    for op in history.of_kind("delivery"):
        v = op.value
        send = out.by_message_id.get(v.message_id)
        if v.queue_message_id is None or send is None:
            continue
        out.by_message_id.setdefault(v.queue_message_id, send)
        out.copies.setdefault(v.message_id, []).append(v.queue_message_id)
        if v.message_id in out.valid_message_ids:
            out.valid_message_ids[v.queue_message_id] = out.valid_message_ids[v.message_id]
    return out


def first_recorded(history: History) -> dict[str, Op]:
    """key -> the observer's first `recorded` op for it."""
    out: dict[str, Op] = {}
    for op in history.of_kind("recorded"):
        out.setdefault(op.value.key, op)
    return out


def trail(history: History, message_ids: set[str]) -> list[dict[str, Any]]:
    """What SNS and the workers did with these messages, in order (first TRAIL_CAP): for
    one example. An SNS delivery says where it went and, when not delivered, why."""
    out: list[dict[str, Any]] = []
    for op in history.of_kind("delivery", "receive", "delete", "change_visibility"):
        if op.value.message_id in message_ids:
            out.append({"t": round(op.time, 3), "process": op.process, "kind": op.kind,
                        "message_id": op.value.message_id})
            if op.kind == "delivery":
                v = op.value
                out[-1].update({"subscription": v.subscription, "outcome": v.outcome,
                                **({"reason": v.reason} if v.reason else {}),
                                **({"queue_message_id": v.queue_message_id}
                                   if v.queue_message_id else {})})
            if len(out) == TRAIL_CAP:  # an example, not a log: the history has the rest
                break
    return out


def send_facts(op: Op) -> dict[str, Any]:
    """The fields of a send op worth showing in evidence."""
    v = op.value
    return {"key": v.key, "message_id": v.message_id, **v.fields,
            "sent_at": round(op.time, 3)}


def nothing_sent(history: History) -> str:
    """Why nothing valid was sent: the producer's first error, or that it never ran."""
    failed = [op for op in history.ops if op.kind == "send" and op.type == "fail"]
    if failed:
        return (f"the producer could not send ({len(failed)} failed sends, e.g. "
                f"{failed[0].value.error})")
    return "no valid message was sent: the workload did not run"
