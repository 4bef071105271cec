"""The workload stage, with the fault and the recovery: one shape for every workload kind.

A kind (kit/run/queue.py, kit/run/drill.py) builds its threads after bind; the stage starts
them and then the nemesis (the nemesis first for a fault triggered at the start), waits
(bounded) through the workload, lets the run recover when the kind says it can, stops
everything and raises what broke as the kit's error.
"""

from __future__ import annotations

import threading
from typing import Protocol

from kit.faults.nemesis import Nemesis
from kit.run import fault
from kit.run.bind import Bound
from kit.run.context import RunContext
from kit.run.drill import DrillWorkload
from kit.run.queue import QueueWorkload


class WorkloadKind(Protocol):
    """What the workload stage needs of a workload kind."""

    stopping: threading.Event  # set when the run stops: the fault's signal to end

    def fault_hooks(self) -> fault.FaultHooks:
        """The kind's handles for its fault (kit/run/fault.py)."""

    def start(self) -> None:
        """Start the kind's threads (the nemesis starts after them)."""

    def drive(self, nemesis: Nemesis) -> None:
        """Wait (bounded) through the workload and the fault."""

    def recovers(self) -> bool:
        """Whether a recovery can follow (False: nothing can recover)."""

    def recover(self) -> None:
        """Wait (bounded) until the run has recovered or cannot any more."""

    def stop(self, nemesis: Nemesis) -> None:
        """Set `stopping` and stop every thread it started, and the nemesis."""

    def raise_errors(self, nemesis: Nemesis) -> None:
        """Raise the kit's error for a thread (or a service) that broke."""


def kind_of(ctx: RunContext, bound: Bound) -> WorkloadKind:
    """The scenario's workload kind, built over the bound run."""
    if ctx.scenario.workload.kind == "drill":
        return DrillWorkload(ctx, bound)
    return QueueWorkload(ctx, bound)


def run_workload(ctx: RunContext, bound: Bound) -> None:
    """Workload, fault and recovery, until the run has settled (every wait bounded)."""
    kind = kind_of(ctx, bound)
    nemesis = fault.nemesis(ctx, bound, kind.stopping, kind.fault_hooks())
    try:
        with ctx.stage("workload"):
            ctx.recorder.record("kit", "phase", name="workload")
            _start(kind, nemesis)
            kind.drive(nemesis)
        if kind.recovers():
            with ctx.stage("recover"):
                ctx.recorder.record("kit", "phase", name="recover")
                kind.recover()
    finally:
        kind.stop(nemesis)
    kind.raise_errors(nemesis)


# How long a fault injected at the start may take to be in force (a proxy switched off, a
# policy put): past it the workload starts anyway, and the nemesis reports what broke.
INJECT_TIMEOUT = 30.0


def _start(kind: WorkloadKind, nemesis: Nemesis) -> None:
    """The kind's threads, then the nemesis; or the nemesis first, the kind once the fault
    is in force, for a fault triggered at the start."""
    if not nemesis.starts_first():
        kind.start()
        nemesis.start()
        return
    nemesis.start()
    nemesis.injected.wait(INJECT_TIMEOUT)
    kind.start()
