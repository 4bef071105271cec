"""The stop rule of a queue run: it ends early only when no valid message can still take effect.

Pure functions over one look at the run (the emulator's counts of the watched queues, the
history so far); the run (kit/run/queue.py await_quiescence) takes the looks and bounds the
wait by `wait_until`. Why both sources: each can be wrong alone (issue 45: moto lost a
message from its list, so its counts said empty while a valid message was still due), and a
run stopped too early turns a slow message into a lost one.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from kit.history import Op

# All zero for this long, some valid key still unrecorded: the solution dropped it (it will
# not come back), so waiting longer would change no verdict.
QUIET_SECONDS = 3.0
# Kinds whose calls are recorded as invoke, then ok / fail / info: a Lambda invocation (and
# a receive, should a consumer record one so).
CALLS = ("receive", "invocation")
# A visibility timeout longer than this does not hold a run longer (AWS allows 12 hours).
MAX_VISIBILITY_WAIT = 300.0


@dataclass(frozen=True)
class Look:
    """One look at a queue run, summed over the queues its valid messages pass through."""

    visible: int  # ApproximateNumberOfMessages
    not_visible: int  # ApproximateNumberOfMessagesNotVisible: in flight, per the emulator
    delayed: int  # ApproximateNumberOfMessagesDelayed
    open_receives: int  # calls in progress, per the history (`open_calls`)
    all_recorded: bool  # every valid key has taken effect


def settled(look: Look) -> bool:
    """Nothing visible, in flight (emulator and history agree) or delayed."""
    return not (look.visible or look.not_visible or look.delayed or look.open_receives)


def may_stop(look: Look, quiet_for: float) -> bool:
    """The run may stop now: settled, and every valid key recorded or settled for
    QUIET_SECONDS (`quiet_for`: how long the looks have been settled)."""
    return settled(look) and (look.all_recorded or quiet_for >= QUIET_SECONDS)


def open_calls(ops: Sequence[Op]) -> int:
    """Invokes of CALLS without their completion (ok / fail / info) by the same process,
    the process still alive (a `worker_exit` names it otherwise: its call is over)."""
    open_: Counter[tuple[str, str]] = Counter()
    for op in ops:
        if op.kind == "worker_exit":
            for call in [c for c in open_ if c[0] == getattr(op.value, "worker", None)]:
                del open_[call]
        elif op.kind in CALLS and op.type == "invoke":
            open_[(op.process, op.kind)] += 1
        elif op.kind in CALLS and open_[(op.process, op.kind)]:
            open_[(op.process, op.kind)] -= 1
    return sum(open_.values())


def window_end(ops: Sequence[Op], rto_seconds: float, visibility_seconds: float) -> float:
    """When the verdicts stop counting (run clock): the RTO after the last fault_end (the
    last send without a fault), plus one visibility timeout for a message a killed worker
    held to come back. -inf before anything was sent."""
    ends = [op.time for op in ops if op.kind == "fault_end" and op.value.fault != "none"]
    sends = [op.time for op in ops if op.kind == "send"]
    reference = max(ends or sends or [float("-inf")])
    return reference + rto_seconds + min(visibility_seconds, MAX_VISIBILITY_WAIT)


def wait_until(now: float, quiescence_timeout: float, window: float) -> float:
    """The end of the wait (run clock): the scenario's quiescence timeout from now, or the
    verdicts' window when it ends later."""
    return max(now + quiescence_timeout, window)
