"""Process faults: SIGKILL a worker in the middle of an order."""

from __future__ import annotations

from typing import Any

from kit.faults.base import FaultContext, FaultNotInjected, wait_for

HOLD_TIMEOUT = 30.0


def _holding(ctx: FaultContext) -> dict[str, tuple[int, str]]:
    """Live workers in the middle of an order: they received a valid order that is not
    recorded yet (whether or not they already deleted its message) -> (op index, message).
    """
    ops = ctx.recorder.snapshot()
    recorded = {op["value"]["order_id"] for op in ops if op["kind"] == "recorded"}
    valid = {op["value"]["order_id"] for op in ops if op["kind"] == "send" and op["value"]["valid"]}
    held: dict[str, tuple[int, str]] = {}
    for op in ops:
        order_id = op["value"].get("order_id") if op["kind"] == "receive" else None
        if order_id in valid and order_id not in recorded:
            held[op["process"]] = (op["index"], op["value"]["message_id"])
    live = ctx.supervisor.holders()
    return {name: held[name] for name in held if name in live}


class WorkerCrash:
    """SIGKILL a worker that holds a valid order it has not finished; it is restarted."""

    def start(self, ctx: FaultContext) -> dict[str, Any]:
        wait_for(ctx, lambda: bool(_holding(ctx)), HOLD_TIMEOUT, "a worker holding an order")
        # The most recent receive: that worker has just started the order's work.
        for name, (_, message_id) in sorted(_holding(ctx).items(), key=lambda kv: -kv[1][0]):
            if ctx.supervisor.kill(name):
                return {"killed": name, "holding": message_id}
        raise FaultNotInjected("worker_crash: no worker holding an order could be killed")

    def window(self, ctx: FaultContext) -> None:
        pass  # the kill is the whole fault

    def heal(self, ctx: FaultContext) -> None:
        pass  # the supervisor restarts the worker, as the contract says
