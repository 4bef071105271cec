"""Process faults: SIGKILL a worker in the middle of an order."""

from __future__ import annotations

from typing import Any

from kit.faults.base import FaultContext, FaultNotInjected, wait_for

HOLD_TIMEOUT = 30.0


def _holding(ctx: FaultContext) -> dict[str, str]:
    """Live workers -> a message they received and have not deleted yet."""
    held: dict[str, str] = {}
    for op in ctx.recorder.snapshot():
        if op["kind"] == "receive":
            held[op["process"]] = op["value"]["message_id"]
        elif op["kind"] == "delete" and held.get(op["process"]) == op["value"]["message_id"]:
            del held[op["process"]]
    live = ctx.supervisor.holders()
    return {name: msg for name, msg in held.items() if name in live}


class WorkerCrash:
    """SIGKILL a worker that holds a valid order it has not finished; it is restarted."""

    def start(self, ctx: FaultContext) -> dict[str, Any]:
        wait_for(ctx, lambda: bool(_holding(ctx)), HOLD_TIMEOUT, "a worker holding an order")
        for name, message_id in sorted(_holding(ctx).items()):
            if ctx.supervisor.kill(name):
                return {"killed": name, "holding": message_id}
        raise FaultNotInjected("worker_crash: no worker holding an order could be killed")

    def window(self, ctx: FaultContext) -> None:
        pass  # the kill is the whole fault

    def heal(self, ctx: FaultContext) -> None:
        pass  # the supervisor restarts the worker, as the contract says
