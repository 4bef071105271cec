"""What every fault shares: its typed parameters, the context it acts on, and its shape.

A fault kind is one class: `Params` (a pydantic model of `params` in scenario.yaml),
`targets` (what it may be aimed at: resource kinds such as "database", or the special
targets "endpoint.aws" and "workers"), and start / window / heal. Healing is not optional:
start() and heal() are abstract, so every kind writes its own heal() (a no-op only where
the kind says why). start() returns what it changed and heal() what it restored (the
fault_start and fault_end details of the history).

An ability only some kinds have is a small protocol of its own, not a base-class method:
`References` (params that name scenario resources). A caller asks `isinstance(kind,
References)`; a kind without the ability simply lacks the method.

A fault acts only from start(), once its trigger fired: a kind has no hook into the
workers' environment, files or sandbox, so nothing a worker can see before the fault
differs from a run without it (tests/unit/faults/test_unannounced.py).
"""

from __future__ import annotations

import threading
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict

from kit.errors import KitError
from kit.recorder import Recorder

if TYPE_CHECKING:
    from kit.aws import Credentials
    from kit.faults.hooks import DrillHooks, RotationHooks, Workers
    from kit.faults.spec import Fault
    from kit.gateway.server import Gateway
    from kit.sandbox.toxiproxy import Proxy

class FaultNotInjected(Exception):
    """The workload never reached the state the fault needs (e.g. no worker ever deleted a
    message): the solution's doing, judged by workload.fault_injected."""


class FaultBroken(KitError):
    """The kit could not inject or heal a fault (a service answered an error)."""


class NoParams(BaseModel):
    """A fault kind without parameters."""

    model_config = ConfigDict(extra="forbid", frozen=True)


@dataclass(kw_only=True)
class FaultContext:
    """The handles a fault may act on during one run (built by keyword: kit/run/fault.py)."""

    spec: Fault
    params: BaseModel
    recorder: Recorder
    supervisor: Workers | None  # the workers' supervisor, or a Lambda consumer's service
    gateway: Gateway
    stopping: threading.Event
    proxies: Mapping[str, Proxy] = field(default_factory=dict)  # network target -> proxy
    roles: Mapping[str, str] = field(default_factory=dict)  # role resource -> ARN
    # Keys the producer sends exactly once: killing the holder of one of these can lose it,
    # while a key sent twice has another copy that would hide the damage.
    single_send_keys: frozenset[str] = frozenset()
    # A look at the effects now (the queue workload's observer): what a worker committed a
    # moment ago is recorded once it returns.
    observe: Callable[[], bool] | None = None
    seed: int = 0  # the run's seed: a fault that draws anything draws from it
    work: Path = Path()  # the run's private work directory
    values: Mapping[str, Any] = field(default_factory=dict)  # bindings: "queue.jobs.url"...
    harness: Credentials | None = None  # the principal that assumes the roles
    # Drills: the data plane, the application, and where the incident is reported.
    drill: DrillHooks | None = None
    rotation: RotationHooks | None = None  # drills whose application's secret rotates

    @property
    def target(self) -> str:
        """The fault's target name, as scenario.yaml gives it."""
        return self.spec.target or ""


@runtime_checkable
class References(Protocol):
    """A kind whose params name scenario resources (e.g. resource_deny's `principal`)."""

    @staticmethod
    def references(params: Any) -> list[str]:
        """The scenario resources `params` name (checked when the scenario loads)."""
        ...


class FaultKind(ABC):
    """One fault: start it, hold it for its window, heal it."""

    Params: ClassVar[type[BaseModel]] = NoParams
    targets: ClassVar[tuple[str, ...]] = ()
    timed: ClassVar[bool] = False  # held for duration_seconds (which must then be > 0)
    # May be injected before the workload starts (trigger at_start): it acts on the
    # environment, not on messages or workers that only the workload brings.
    at_start: ClassVar[bool] = False

    def __init__(self, ctx: FaultContext) -> None:
        self.ctx = ctx
        self.params: Any = ctx.params

    @abstractmethod
    def start(self) -> dict[str, Any]:
        """Inject the fault; returns what was done (recorded as fault_start's detail)."""

    def window(self) -> None:
        """Hold the fault: for its duration when timed, else until it has acted."""
        if self.timed:
            self.ctx.stopping.wait(self.ctx.spec.duration_seconds)

    @abstractmethod
    def heal(self) -> dict[str, Any] | None:
        """Undo the fault (idempotent); returns what was restored (None: as start said)."""

    def value(self, attribute: str) -> Any:
        """An attribute of the target resource in this run (`arn`, `url`, `name`)."""
        return self.ctx.values[f"{self.ctx.target}.{attribute}"]

    def role_name(self) -> str:
        """The name of the target role (the last part of its ARN)."""
        return self.ctx.roles[self.ctx.target].rsplit("/", 1)[-1]


def wait_for(ctx: FaultContext, condition: Any, timeout: float, what: str) -> None:
    """Wait (bounded) until `condition()` holds, woken by every recorded op; raise
    FaultNotInjected naming `what` if it never does."""
    with ctx.recorder.changed:
        if not ctx.recorder.changed.wait_for(lambda: condition() or ctx.stopping.is_set(),
                                             timeout=timeout):
            raise FaultNotInjected(f"{what} did not happen within {timeout:.0f} s")
