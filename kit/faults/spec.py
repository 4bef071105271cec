"""What scenario.yaml says of one fault (field `faults.<name>`): its kind, target, trigger,
duration and params; each kind's own `Params` model reads `params`.

Here beside the kinds rather than in kit/scenario.py so that a fault can name its spec
without importing the scenario loader, which sits above the faults (it checks each
fault's kind and params against them).
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field


class Trigger(BaseModel):
    """Inject when this many distinct keys have been recorded and this many writes
    acknowledged (drills): events, not a clock; if that never happens within
    `timeout_seconds`, the fault is not injected (the solution's doing:
    workload.fault_injected)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    after_recorded: int = Field(0, ge=0)
    after_acknowledged: int = Field(0, ge=0)
    timeout_seconds: float = Field(60, gt=0, le=600)


class Fault(BaseModel):
    """One fault of a scenario: the kind injected, at what, when and for how long."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    kind: str
    target: str | None = None
    trigger: Trigger = Trigger()
    duration_seconds: float = Field(0, ge=0, le=120)
    params: dict[str, Any] = {}
