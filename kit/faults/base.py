"""What every fault shares: the context it acts on, and the nemesis that schedules it."""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any, Protocol

from kit.errors import KitError
from kit.gateway.server import Gateway
from kit.sandbox.toxiproxy import Proxy
from kit.scenario import Fault
from kit.workload.recorder import Recorder
from kit.workload.supervisor import Supervisor

TRIGGER_TIMEOUT = 60.0


class FaultNotInjected(KitError):
    """The fault could not be injected (its trigger never fired, nothing to act on)."""


@dataclass
class FaultContext:
    """The handles a fault may act on during one run."""

    spec: Fault
    recorder: Recorder
    supervisor: Supervisor
    gateway: Gateway
    db_proxy: Proxy
    sqs_proxy: Proxy
    stopping: threading.Event
    worker_role_arn: str | None = None  # the role the workers run as (IAM faults act on it)
    # Orders the producer sends exactly once: killing the holder of one of these can lose
    # it, while a duplicate-sent order has another copy that would hide the damage.
    single_send_orders: frozenset[str] = frozenset()


class FaultKind(Protocol):
    """One fault: start it, hold it for its window, heal it. Healing is not optional."""

    def start(self, ctx: FaultContext) -> dict[str, Any]: ...

    def window(self, ctx: FaultContext) -> None: ...

    def heal(self, ctx: FaultContext) -> None: ...


class Timed:
    """A fault that holds for `duration_seconds` after it starts (stops early on abort)."""

    def window(self, ctx: FaultContext) -> None:
        ctx.stopping.wait(ctx.spec.duration_seconds)


def wait_for(ctx: FaultContext, condition: Any, timeout: float, what: str) -> None:
    """Wait (bounded) until `condition()` holds, woken by every recorded op."""
    with ctx.recorder.changed:
        if not ctx.recorder.changed.wait_for(lambda: condition() or ctx.stopping.is_set(),
                                             timeout=timeout):
            raise FaultNotInjected(f"{ctx.spec.kind}: {what} did not happen within "
                                   f"{timeout:.0f} s")
