"""Faults (the nemesis): one module per family, one fault per run, always healed."""

from __future__ import annotations

import threading
from typing import Any

from kit.faults.base import TRIGGER_TIMEOUT, FaultContext, FaultKind, FaultNotInjected, wait_for
from kit.faults.iam import IamRevoke
from kit.faults.messages import DuplicateDelivery
from kit.faults.network import DbLatency, DbOutage, SqsOutage
from kit.faults.process import WorkerCrash

FAULTS: dict[str, type[FaultKind]] = {
    "worker_crash": WorkerCrash,
    "duplicate_delivery": DuplicateDelivery,
    "db_outage": DbOutage,
    "db_latency": DbLatency,
    "sqs_outage": SqsOutage,
    "iam_revoke": IamRevoke,
}


class Nemesis(threading.Thread):
    """Waits for the fault's trigger event, injects it, holds it, heals it; records all."""

    def __init__(self, ctx: FaultContext) -> None:
        super().__init__(name="nemesis", daemon=True)
        self.ctx = ctx
        self.error: Exception | None = None
        self.done = threading.Event()

    def run(self) -> None:
        ctx, spec = self.ctx, self.ctx.spec
        try:
            if spec.kind == "none":
                return
            if spec.kind not in FAULTS:
                raise FaultNotInjected(f"fault kind {spec.kind!r} is not implemented; "
                                       f"implemented: {', '.join(sorted(FAULTS))}")
            wait_for(ctx, lambda: len(_recorded(ctx)) >= spec.trigger.after_recorded,
                     TRIGGER_TIMEOUT, f"{spec.trigger.after_recorded} orders recorded")
            if ctx.stopping.is_set():
                return  # the run ended first (its workers never ran): no fault to inject
            fault = FAULTS[spec.kind]()
            detail: dict[str, Any] = fault.start(ctx)
            ctx.recorder.record("nemesis", "fault_start", fault=spec.kind, detail=detail)
            try:
                fault.window(ctx)
            finally:
                fault.heal(ctx)
                ctx.recorder.record("nemesis", "fault_end", fault=spec.kind, detail=detail)
        except Exception as exc:  # noqa: BLE001 - a fault that could not run makes an error
            self.error = exc
        finally:
            self.done.set()


def _recorded(ctx: FaultContext) -> set[str]:
    return {op["value"]["order_id"] for op in ctx.recorder.snapshot() if op["kind"] == "recorded"}


__all__ = ["FAULTS", "FaultContext", "FaultNotInjected", "Nemesis"]
