"""Process faults: SIGKILL a worker in the middle of a message."""

from __future__ import annotations

import time
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from kit.faults.base import FaultContext, FaultKind, FaultNotInjected

POLL_SECONDS = 0.01


class CrashParams(BaseModel):
    """How long a worker that made no request with its message must have held it before
    it is killed, and how long to wait for such a worker."""

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
    """SIGKILL a worker in the middle of a message; it is restarted.

    In the middle: its effect is not recorded (a fresh look of the observer confirms it
    just before the kill), and the worker has acted on it (a request of its answered since
    the receipt) or held it for `after_receive_seconds` (it may act only on the database,
    which the kit sees as the effect). Between two of its requests, never during one: a kill
    during a request is one just before it or, once the emulator had it, just after. Acts,
    not only time: on a loaded machine a worker can take longer than `after_receive_seconds`
    to make the first request it makes with a message (an early delete), and a kill before
    that request would not be in the middle of anything.
    """

    Params = CrashParams
    targets = ("workers",)

    def start(self) -> dict[str, Any]:
        age = self.params.after_receive_seconds
        deadline = time.monotonic() + self.params.within_seconds
        # Polled, not only woken by new ops: the hold must reach its age with no new op.
        while not self.ctx.stopping.is_set() and time.monotonic() < deadline:
            # A key the worker committed since the observer's last poll is not held: look
            # afresh before a kill, or the kill lands after the commit it was to precede.
            ripe = self._ripe(age)
            if ripe and self.ctx.observe is not None:
                self.ctx.observe()
                ripe = self._ripe(age)
            for _, name, message_id in ripe:
                if self.ctx.supervisor.kill(name):
                    return {"killed": name, "holding": message_id}
            self.ctx.stopping.wait(POLL_SECONDS)
        raise FaultNotInjected(f"no worker held a message it had not recorded for {age} s "
                               f"within {self.params.within_seconds:.0f} s")

    def _ripe(self, age: float) -> list[tuple[float, str, str]]:
        """(receive time, worker, message) of the workers in the middle of a message and
        between two requests, the latest receipt first."""
        now, gateway = self.ctx.recorder.now(), self.ctx.gateway
        busy = gateway.calling()
        return sorted(((t, name, msg) for name, (t, msg) in _holding(self.ctx).items()
                       if name not in busy and (now - t >= age
                                                or (gateway.answered(name) or -1.0) > t)),
                      reverse=True)

    # The kill is the whole fault; the supervisor restarts the worker, as the contract says.
    def window(self) -> None:
        pass

    def heal(self) -> None:
        # Nothing to undo: a SIGKILL cannot be taken back, and the supervisor has already
        # restarted the worker; what the crash lost is the solution's to recover.
        return None
