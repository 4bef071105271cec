"""The nemesis: the thread that injects a run's one fault when its trigger fires, holds it
for its window and heals it, recording each step in the history."""

from __future__ import annotations

import threading
from typing import Any

from kit.faults.base import FaultBroken, FaultContext, FaultNotInjected, wait_for
from kit.faults.kinds import FAULTS


class Nemesis(threading.Thread):
    """Waits for the fault's trigger event, injects it, holds it, heals it; records all.

    A fault the workload never gave a chance (its trigger never fired, no worker ever held
    a message, no delete ever came) is recorded as `fault_not_injected`: the solution's
    doing, judged by workload.fault_injected. A fault the kit failed to inject is `error`.
    """

    def __init__(self, ctx: FaultContext) -> None:
        super().__init__(name="nemesis", daemon=True)
        self.ctx = ctx
        self.error: Exception | None = None
        self.done = threading.Event()
        self.injected = threading.Event()  # the fault is in force (or never will be: done)

    def run(self) -> None:
        ctx, spec = self.ctx, self.ctx.spec
        try:
            if spec.kind == "none":
                return
            trigger = spec.trigger
            wait_for(ctx, lambda: ctx.recorder.distinct_keys() >= trigger.after_recorded
                     and ctx.recorder.count("write") >= trigger.after_acknowledged,
                     trigger.timeout_seconds, f"{trigger.after_recorded} messages recorded "
                     f"and {trigger.after_acknowledged} writes acknowledged")
            if ctx.stopping.is_set():
                return  # the run ended first (its workers never ran): no fault to inject
            fault = FAULTS[spec.kind](ctx)
            detail: dict[str, Any] = fault.start()
            ctx.recorder.record("nemesis", "fault_start", fault=spec.kind, detail=detail)
            self.injected.set()
            try:
                fault.window()
            finally:
                restored = fault.heal()
                ctx.recorder.record("nemesis", "fault_end", fault=spec.kind,
                                    detail=restored if restored is not None else detail)
        except FaultNotInjected as exc:
            ctx.recorder.record("nemesis", "fault_not_injected", fault=spec.kind,
                                reason=str(exc))
        except Exception as exc:  # noqa: BLE001 - a fault the kit could not run is an error
            self.error = exc if isinstance(exc, FaultBroken) else FaultBroken(
                f"fault {spec.kind}: {type(exc).__name__}: {exc}")
        finally:
            self.done.set()
            self.injected.set()

    def starts_first(self) -> bool:
        """Whether the fault is injected before the workload starts (trigger at_start)."""
        return self.ctx.spec.kind != "none" and self.ctx.spec.trigger.at_start
