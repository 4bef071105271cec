"""Faults (the nemesis): one module per family, one fault per run, always healed."""

from __future__ import annotations

import threading
from typing import Any

from kit.faults.base import (
    FaultBroken,
    FaultContext,
    FaultKind,
    FaultNotInjected,
    References,
    wait_for,
)
from kit.faults.clock import ClockSkew
from kit.faults.function import FunctionThrottle, FunctionTimeout
from kit.faults.iam import (
    BoundaryTightened,
    IamDeny,
    PolicyRollback,
    ResourceDeny,
    StatementRemoved,
    TrustNarrowed,
)
from kit.faults.messages import LostDeletes
from kit.faults.network import NetworkLatency, NetworkOutage
from kit.faults.process import WorkerCrash
from kit.faults.rds import (
    AzLoss,
    BadMigration,
    InstanceCrash,
    InstanceDelete,
    MaintenanceReboot,
    RegionLoss,
)
from kit.faults.rotation import SecretRotation

FAULTS: dict[str, type[FaultKind]] = {
    "worker_crash": WorkerCrash,
    "lost_deletes": LostDeletes,
    "network_outage": NetworkOutage,
    "network_latency": NetworkLatency,
    "iam_deny": IamDeny,
    "policy_rollback": PolicyRollback,
    "boundary_tightened": BoundaryTightened,
    "statement_removed": StatementRemoved,
    "resource_deny": ResourceDeny,
    "trust_narrowed": TrustNarrowed,
    "instance_crash": InstanceCrash,
    "az_loss": AzLoss,
    "bad_migration": BadMigration,
    "instance_delete": InstanceDelete,
    "reboot_failover": MaintenanceReboot,
    "region_loss": RegionLoss,
    "clock_skew": ClockSkew,
    "function_timeout": FunctionTimeout,
    "function_throttle": FunctionThrottle,
    "secret_rotation": SecretRotation,
}
KINDS = ("none", *FAULTS)


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


__all__ = ["FAULTS", "KINDS", "FaultContext", "FaultNotInjected", "Nemesis", "References"]
