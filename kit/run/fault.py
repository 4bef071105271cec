"""The fault stage: the run's one fault as a Nemesis, over a FaultContext built once, here,
from the bound run (the same handles for every workload kind) and the kind's own hooks."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass

from kit.faults import FAULTS, FaultContext
from kit.faults.hooks import DrillHooks, RotationHooks
from kit.faults.nemesis import Nemesis
from kit.lambdas.service import LambdaService
from kit.run.bind import Bound
from kit.run.context import RunContext
from kit.workload.supervisor import Supervisor


@dataclass(frozen=True, kw_only=True)
class FaultHooks:
    """What a workload kind adds for its fault: the workers' supervisor and the keys sent
    once (the queue workload), or the drill's plane, application and runbook."""

    supervisor: Supervisor | LambdaService | None = None
    single_send_keys: frozenset[str] = frozenset()
    observe: Callable[[], bool] | None = None  # the effects observer's fresh look
    drill: DrillHooks | None = None
    rotation: RotationHooks | None = None


def nemesis(ctx: RunContext, bound: Bound, stopping: threading.Event,
            hooks: FaultHooks) -> Nemesis:
    """The thread that injects and heals the run's fault (started by the workload stage)."""
    return Nemesis(context(ctx, bound, stopping, hooks, ctx.fault))


def context(ctx: RunContext, bound: Bound, stopping: threading.Event, hooks: FaultHooks,
            name: str) -> FaultContext:
    """The handles the scenario's fault `name` acts on in this bound run (also the pytest
    plugin's `inject`, kit/testing/fault.py)."""
    spec = ctx.scenario.faults[name]
    kind = FAULTS.get(spec.kind)
    params = kind.Params.model_validate(spec.params) if kind else None
    return FaultContext(
        spec=spec, params=params, recorder=ctx.recorder, gateway=bound.gateway,
        stopping=stopping, proxies=bound.proxies, roles=bound.roles, seed=ctx.seed,
        work=ctx.work, values=bound.values, harness=bound.harness,
        supervisor=hooks.supervisor, single_send_keys=hooks.single_send_keys,
        observe=hooks.observe,
        drill=hooks.drill, rotation=hooks.rotation)
