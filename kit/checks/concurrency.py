"""delivery.no_concurrent_processing: no message is processed by two live workers at once.

A hold of message m by worker session w starts at w's receive of m and ends at the first
of: w deletes m (the hold is completed), w releases m (change_visibility with timeout 0),
w receives m again (a new hold starts), w exits. A lapsed visibility timeout does not end
a hold: a worker that is still alive and later deletes m was still working on it, and the
lapse is exactly how a second worker gets m (a visibility timeout shorter than the work,
no heartbeat while the database is slow or down). Events are ordered by op index.

Receives marked `injected` were fabricated by the nemesis (duplicate_delivery): they are
not SQS deliveries, so they neither open holds nor count as a second receive here; the
effects of processing them twice are idempotency.effects_once's business. Different
message ids carrying the same order (duplicate sends) are different messages here too.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from kit.checks.result import CheckResult, Params, anomaly, judged, plural
from kit.history import History, Op

NO_CONCURRENT_PROCESSING = "delivery.no_concurrent_processing"


@dataclass
class _Hold:
    receive: Op
    overlapped_by: list[Op] = field(default_factory=list)  # other workers' receives


def check_no_concurrent_processing(history: History, p: Params) -> CheckResult:
    """delivery.no_concurrent_processing: no message received by B while A holds and deletes it."""
    open_by_msg: dict[str, dict[str, _Hold]] = defaultdict(dict)
    open_by_worker: dict[str, set[str]] = defaultdict(set)
    receives = 0

    # Concurrent processing: worker B receives m while worker A's hold on m is open, and A
    # then completes that hold (deletes m): both processed m. One member per such pair.
    pairs: list[dict[str, Any]] = []
    for op in history.ops:
        if not op.ok:
            continue
        kind, v = op.kind, op.value
        if kind == "receive" and not v.injected:
            receives += 1
            mid, worker = v.message_id, op.process
            holders = open_by_msg[mid]
            for other, hold in holders.items():
                if other != worker:
                    hold.overlapped_by.append(op)
            holders[worker] = _Hold(op)  # replaces this worker's earlier hold, if any
            open_by_worker[worker].add(mid)
        elif kind == "delete":
            hold = _close(open_by_msg, open_by_worker, op.process, v.message_id)
            if hold is not None:
                pairs.extend(_pair(hold, second, op) for second in hold.overlapped_by)
        elif kind == "change_visibility" and v.timeout == 0:
            _close(open_by_msg, open_by_worker, op.process, v.message_id)
        elif kind == "worker_exit":
            # A killed or exited worker processes nothing more: its holds end here.
            for mid in open_by_worker.pop(v.worker, set()):
                open_by_msg[mid].pop(v.worker, None)

    messages = sorted({pair["message_id"] for pair in pairs})
    evidence = {"receives": receives, "messages": len(messages),
                "concurrent": anomaly(pairs)}
    # Pass rule: no message is received by a worker while another live worker holds it and
    # goes on to delete it.
    if pairs:
        e = pairs[0]
        summary = (f"{plural(len(messages), 'message')} processed by two workers at once (e.g. "
                   f"{e['message_id']}: {e['first']} received it at {e['first_received_at']} s, "
                   f"{e['second']} at {e['second_received_at']} s, {e['first']} deleted it at "
                   f"{e['first_deleted_at']} s)")
    else:
        # With no receive at all nothing was processed twice; workload.workers_start
        # fails such a run (workers that never act).
        summary = f"no message was processed by two workers at once ({receives} receives)"
    return judged(NO_CONCURRENT_PROCESSING, not pairs, summary, evidence, p)


def _close(open_by_msg: dict[str, dict[str, _Hold]], open_by_worker: dict[str, set[str]],
           worker: str, mid: str) -> _Hold | None:
    """End worker's hold on mid, if open, and return it."""
    open_by_worker[worker].discard(mid)
    return open_by_msg[mid].pop(worker, None) if mid in open_by_msg else None


def _pair(hold: _Hold, second: Op, delete: Op) -> dict[str, Any]:
    first = hold.receive
    return {
        "message_id": first.value.message_id,
        "key": first.value.key,
        "first": first.process,
        "first_received_at": round(first.time, 3),
        "second": second.process,
        "second_received_at": round(second.time, 3),
        "first_deleted_at": round(delete.time, 3),
        "held_for_s": round(second.time - first.time, 3),
    }
