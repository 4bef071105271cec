"""Delivery invariants: where every message ends up (the effects table or the DLQ).

- delivery.no_loss: every distinct valid key sent has an effect row at the end (a key
  published to a topic that SNS delivered to no queue, or put as an event that its rule
  delivered to no queue, says why: the filter policy or the queue policy, from the
  `delivery` ops).
- delivery.poison_to_dlq: every poison message ends in the DLQ within the receive bound
  and is never recorded.
- delivery.no_valid_in_dlq: no valid message is in the DLQ at the end.

A poison message counts as in the DLQ when a DLQ message has its message id (SQS redrive
keeps the id and the receive count) or, for an explicit move by the worker, its body
unchanged (a new message, so the receive count comes from the recorded receives). The DLQ
is the queue resource named by the `dlq` parameter; validity of a DLQ message moved by
the worker is decided by the body of the valid send it matches.
"""

from __future__ import annotations

from collections import defaultdict, deque
from typing import Any

from kit.checks.result import CheckResult, Params, anomaly, error, judged, plural
from kit.checks.sent import first_recorded, nothing_sent, send_facts, sent, trail
from kit.history import History, QueueMessage

NO_LOSS = "delivery.no_loss"
POISON_TO_DLQ = "delivery.poison_to_dlq"
NO_VALID_IN_DLQ = "delivery.no_valid_in_dlq"

POISON_DEFAULTS = {"max_receives": 3, "dlq": "queue.dlq"}
DLQ_DEFAULTS = {"dlq": "queue.dlq"}


def _dlq(history: History, p: Params) -> list[QueueMessage] | None:
    queues = history.final.queues if history.final else None
    return None if queues is None else queues.get(p["dlq"])


def check_no_loss(history: History, p: Params) -> CheckResult:
    """delivery.no_loss: every distinct valid key sent has an effect row at the end."""
    s = sent(history)
    if not s.valid:
        return error(NO_LOSS, f"{nothing_sent(history)}: nothing to judge", p)
    final = history.final
    if final is None or final.effects is None:
        return error(NO_LOSS, "the final effects table was not read: cannot tell what was "
                     "lost", p)
    present = {row.key for row in final.effects}

    # Lost: a valid key that the producer sent (once or as a duplicate send) and that no
    # effect row holds at the end.
    lost = [key for key in s.valid if key not in present]

    example = None
    if lost:
        op = s.valid[lost[0]]
        ids = {m for m, key in s.valid_message_ids.items() if key == lost[0]}
        example = {**send_facts(op), "message_ids": sorted(ids), "trail": trail(history, ids)}
    evidence = {"sent": len(s.valid), "lost": anomaly(lost, example)}
    undelivered = _not_delivered(history, s, lost)
    if undelivered:
        by = "eventbridge" if _deliverer(history) == "EventBridge" else "sns"
        evidence[f"not_delivered_by_{by}"] = undelivered
    # Pass rule: no valid message is lost.
    if lost:
        summary = f"{len(lost)} of {len(s.valid)} valid messages lost (e.g. {lost[0]})"
        if undelivered:
            reason, keys = next(iter(undelivered.items()))
            summary += f"; {_deliverer(history)} never delivered {len(keys)} of them to a " \
                f"queue: {reason}"
    else:
        summary = f"all {len(s.valid)} valid messages took effect"
    return judged(NO_LOSS, not lost, summary, evidence, p)


def _deliverer(history: History) -> str:
    """Who delivers the producer's messages to queues: SNS, EventBridge or both."""
    found = {op.process for op in history.of_kind("delivery")}
    names = [n for p, n in (("sns", "SNS"), ("events", "EventBridge")) if p in found]
    return " or ".join(names) or "SNS"


def _not_delivered(history: History, s: Any, lost: list[str]) -> dict[str, list[str]]:
    """Lost keys published to a topic that SNS delivered to no queue, by the reason of
    their first delivery (filtered by a subscription's policy, refused by a queue's)."""
    lost_ids = {m: key for m, key in s.valid_message_ids.items() if key in set(lost)}
    delivered: set[str] = set()
    reasons: dict[str, str] = {}
    for op in history.of_kind("delivery"):
        v = op.value
        if v.message_id not in lost_ids:
            continue
        if v.outcome == "delivered":
            delivered.add(lost_ids[v.message_id])
        else:
            reasons.setdefault(lost_ids[v.message_id], v.reason)
    out: dict[str, list[str]] = defaultdict(list)
    for key, reason in reasons.items():
        if key not in delivered:
            out[reason].append(key)
    return dict(out)


def check_poison_to_dlq(history: History, p: Params) -> CheckResult:
    """delivery.poison_to_dlq: each poison message is in the DLQ, within bound, never recorded."""
    bound = p["max_receives"]
    s = sent(history)
    if not s.poison:
        return error(POISON_TO_DLQ, "no poison message was sent: nothing to judge", p)
    final = history.final
    dlq = _dlq(history, p)
    if final is None or dlq is None:
        return error(POISON_TO_DLQ, f"the DLQ ({p['dlq']}) was not read at the end: cannot "
                     "tell where poison messages went", p)

    matched, moved = _match_poison(s.poison, dlq, s.copies)
    receives = _worker_receives(history)
    recorded_ids = set(first_recorded(history))
    if final.effects is not None:
        recorded_ids.update(row.key for row in final.effects if row.key is not None)

    missing: list[str] = []
    over: list[dict[str, Any]] = []
    recorded: list[dict[str, Any]] = []
    for op in s.poison:
        v = op.value
        mid, oid = v.message_id, v.key
        # Missing: a poison message that no DLQ message stands for at the end.
        if mid not in matched:
            missing.append(mid)
        else:
            # Over-received: it reached the DLQ after more than max_receives receives (the
            # DLQ receive count when redriven, else the receives the workers made).
            dlq_count = 0 if mid in moved else matched[mid].receive_count
            count = max(dlq_count, *(receives.get(m, 0) for m in (mid, *s.copies.get(mid, ()))))
            if count > bound:
                over.append({"message_id": mid, "receives": count, "max_receives": bound})
        # Recorded: its key took effect, and no valid send carries that key.
        if oid is not None and oid in recorded_ids and oid not in s.valid:
            recorded.append({"message_id": mid, "key": oid, "body": v.body})

    evidence = {
        "poison_sent": len(s.poison),
        "in_dlq": len(matched),
        "moved_by_worker": len(moved),
        "missing_from_dlq": anomaly(missing, _poison_example(history, s.poison, missing)),
        "missing_still_in_queue": _still_queued(final.queues, p["dlq"], missing),
        "over_received": anomaly(over),
        "recorded": anomaly(recorded),
    }
    # Pass rule: no poison message is missing from the DLQ, over-received, or recorded.
    problems = [f"{len(missing)} not in the DLQ" if missing else "",
                f"{len(over)} received more than {bound} times" if over else "",
                f"{len(recorded)} recorded as effects" if recorded else ""]
    problems = [x for x in problems if x]
    if problems:
        summary = f"of {len(s.poison)} poison messages, " + ", ".join(problems)
    else:
        summary = (f"all {len(s.poison)} poison messages reached the DLQ within {bound} "
                   f"receives and none was recorded")
    return judged(POISON_TO_DLQ, not problems, summary, evidence, p)


def check_no_valid_in_dlq(history: History, p: Params) -> CheckResult:
    """delivery.no_valid_in_dlq: no valid message is in the DLQ at the end."""
    s = sent(history)
    if not s.valid:
        return error(NO_VALID_IN_DLQ, f"{nothing_sent(history)}: nothing to judge", p)
    final = history.final
    dlq = _dlq(history, p)
    if final is None or dlq is None:
        return error(NO_VALID_IN_DLQ, f"the DLQ ({p['dlq']}) was not read at the end: cannot "
                     "tell what is in it", p)
    in_effects = ({row.key for row in final.effects} if final.effects is not None else None)
    valid_bodies = {op.value.body: key for key, op in s.valid.items()}

    # Valid in DLQ: a DLQ message that is a valid message: it has a valid send's message
    # id, or (moved there by the worker) a body the scenario calls valid, or the body of a
    # valid send.
    bad: list[dict[str, Any]] = []
    for m in dlq:
        key = (s.valid_message_ids.get(m.message_id) or (m.key if m.valid else None)
               or valid_bodies.get(m.body))
        if key is not None:
            bad.append({"message_id": m.message_id, "key": key,
                        "receive_count": m.receive_count,
                        "recorded": None if in_effects is None else key in in_effects})
    evidence = {"dlq_messages": len(dlq), "valid_in_dlq": anomaly(bad)}
    # Pass rule: the DLQ holds no valid message.
    if bad:
        summary = (f"{plural(len(bad), 'valid message')} in the DLQ (e.g. "
                   f"{bad[0]['key']}, received {bad[0]['receive_count']} times)")
    else:
        summary = f"no valid message among the {len(dlq)} DLQ messages"
    return judged(NO_VALID_IN_DLQ, not bad, summary, evidence, p)


def _match_poison(poison: list, dlq: list[QueueMessage], copies: dict[str, list[str]]
                  ) -> tuple[dict[str, QueueMessage], set[str]]:
    """Poison message id -> the DLQ message standing for it, and the ids moved by body. A
    message published to a topic is in the DLQ under the id SNS gave its queue copy."""
    by_id = {m.message_id: m for m in dlq}
    matched: dict[str, QueueMessage] = {}
    for op in poison:
        mid = op.value.message_id
        found = next((c for c in (mid, *copies.get(mid, ())) if c in by_id), None)
        if found is not None:
            matched[mid] = by_id[found]
    # An explicit move re-sends the body as a new message: match the rest by body, each DLQ
    # message standing for at most one poison message, first come first served.
    taken = {m.message_id for m in matched.values()}
    spare: dict[str, deque[QueueMessage]] = defaultdict(deque)
    for m in dlq:
        if m.message_id not in taken:
            spare[m.body].append(m)
    moved: set[str] = set()
    for op in poison:
        mid = op.value.message_id
        if mid not in matched and spare.get(op.value.body):
            matched[mid] = spare[op.value.body].popleft()
            moved.add(mid)
    return matched, moved


def _worker_receives(history: History) -> dict[str, int]:
    """message_id -> receives by workers: count of real receive ops or the highest count seen."""
    count: dict[str, int] = defaultdict(int)
    highest: dict[str, int] = {}
    for op in history.of_kind("receive"):
        if not op.value.injected:
            mid = op.value.message_id
            count[mid] += 1
            highest[mid] = max(highest.get(mid, 0), op.value.receive_count)
    return {mid: max(n, highest[mid]) for mid, n in count.items()}


def _still_queued(queues: dict[str, list[QueueMessage]] | None, dlq: str,
                  missing: list[str]) -> int | None:
    """How many missing poison messages sit in the other queues (None: queues not read)."""
    if queues is None:
        return None
    ids = {m.message_id for name, messages in queues.items() if name != dlq for m in messages}
    return sum(1 for mid in missing if mid in ids)


def _poison_example(history: History, poison: list, missing: list[str]) -> Any:
    if not missing:
        return None
    op = next(op for op in poison if op.value.message_id == missing[0])
    return {"message_id": missing[0], "body": op.value.body,
            "trail": trail(history, {missing[0]})}
