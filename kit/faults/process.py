"""Process faults: SIGKILL a worker in the middle of an order."""

from __future__ import annotations

import time
from typing import Any

from kit.faults.base import FaultContext, FaultNotInjected

HOLD_TIMEOUT = 30.0
POLL_SECONDS = 0.01


def _holding(ctx: FaultContext) -> dict[str, tuple[float, str]]:
    """Live workers in the middle of an order: they received a valid order (one the
    producer sends once, when known) that is not recorded yet, whether or not they already
    deleted its message -> (receive time, message)."""
    ops = ctx.recorder.snapshot()
    recorded = {op["value"]["order_id"] for op in ops if op["kind"] == "recorded"}
    valid = ctx.single_send_orders or {
        op["value"]["order_id"] for op in ops if op["kind"] == "send" and op["value"]["valid"]}
    held: dict[str, tuple[float, str]] = {}
    for op in ops:
        order_id = op["value"].get("order_id") if op["kind"] == "receive" else None
        if order_id in valid and order_id not in recorded:
            held[op["process"]] = (op["time"], op["value"]["message_id"])
    live = ctx.supervisor.holders()
    return {name: held[name] for name in held if name in live}


class WorkerCrash:
    """SIGKILL a worker in the middle of an order (held for `after_receive_seconds`, so
    whatever the worker does first with a message has happened); it is restarted."""

    def start(self, ctx: FaultContext) -> dict[str, Any]:
        age = float(ctx.spec.params.get("after_receive_seconds", 0.1))
        deadline = time.monotonic() + HOLD_TIMEOUT
        # Polled, not only woken by new ops: the hold must reach its age with no new op.
        while not ctx.stopping.is_set() and time.monotonic() < deadline:
            now = ctx.recorder.now()
            ripe = sorted(((t, name, msg) for name, (t, msg) in _holding(ctx).items()
                           if now - t >= age), reverse=True)
            for _, name, message_id in ripe:
                if ctx.supervisor.kill(name):
                    return {"killed": name, "holding": message_id}
            ctx.stopping.wait(POLL_SECONDS)
        raise FaultNotInjected(f"worker_crash: no worker held an order for {age} s within "
                               f"{HOLD_TIMEOUT:.0f} s")

    def window(self, ctx: FaultContext) -> None:
        pass  # the kill is the whole fault

    def heal(self, ctx: FaultContext) -> None:
        pass  # the supervisor restarts the worker, as the contract says
