"""Process faults: SIGKILL a worker in the middle of a message."""

from __future__ import annotations

import time
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from kit.faults.base import FaultContext, FaultKind, FaultNotInjected

POLL_SECONDS = 0.01


class CrashParams(BaseModel):
    """How long a worker must have held its message before it is killed."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    after_receive_seconds: float = Field(0.1, ge=0, le=60)
    within_seconds: float = Field(30, gt=0, le=600)  # for such a worker to turn up


def _holding(ctx: FaultContext) -> dict[str, tuple[float, str]]:
    """Live workers in the middle of a message: they received a valid message (one whose
    key the producer sends once, when known) whose key is not recorded yet, whether or not
    they already deleted it -> (receive time, message)."""
    ops = ctx.recorder.snapshot()
    recorded = {op.value.key for op in ops if op.kind == "recorded" and op.ok}
    valid = ctx.single_send_keys or {
        op.value.key for op in ops if op.kind == "send" and op.ok and op.value.valid}
    held: dict[str, tuple[float, str]] = {}
    for op in ops:
        key = op.value.key if op.kind == "receive" and op.ok else None
        if key in valid and key not in recorded:
            held[op.process] = (op.time, op.value.message_id)
    live = ctx.supervisor.holders()
    return {name: held[name] for name in held if name in live}


class WorkerCrash(FaultKind):
    """SIGKILL a worker in the middle of a message (held for `after_receive_seconds`, so
    whatever the worker does first with a message has happened); it is restarted."""

    Params = CrashParams
    targets = ("workers",)

    def start(self) -> dict[str, Any]:
        age = self.params.after_receive_seconds
        deadline = time.monotonic() + self.params.within_seconds
        # Polled, not only woken by new ops: the hold must reach its age with no new op.
        while not self.ctx.stopping.is_set() and time.monotonic() < deadline:
            now = self.ctx.recorder.now()
            ripe = sorted(((t, name, msg) for name, (t, msg) in _holding(self.ctx).items()
                           if now - t >= age), reverse=True)
            for _, name, message_id in ripe:
                if self.ctx.supervisor.kill(name):
                    return {"killed": name, "holding": message_id}
            self.ctx.stopping.wait(POLL_SECONDS)
        raise FaultNotInjected(f"no worker held a message it had not recorded for {age} s "
                               f"within {self.params.within_seconds:.0f} s")

    # The kill is the whole fault; the supervisor restarts the worker, as the contract says.
    def window(self) -> None:
        pass

    def heal(self) -> None:
        # Nothing to undo: a SIGKILL cannot be taken back, and the supervisor has already
        # restarted the worker; what the crash lost is the solution's to recover.
        return None
