"""What scenario.yaml says of one fault (field `faults.<name>`): its kind, target, trigger,
duration and params; each kind's own `Params` model reads `params`.

Here beside the kinds rather than in kit/scenario.py so that a fault can name its spec
without importing the scenario loader, which sits above the faults (it checks each
fault's kind and params against them).
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, model_validator


class Trigger(BaseModel):
    """Inject when this many distinct keys have been recorded and this many writes
    acknowledged (drills): events, not a clock; if that never happens within
    `timeout_seconds`, the fault is not injected (the solution's doing:
    workload.fault_injected). With `at_start`, inject before the workload starts (its
    workers then start into the fault: a deploy during a database outage)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    after_recorded: int = Field(0, ge=0)
    after_acknowledged: int = Field(0, ge=0)
    timeout_seconds: float = Field(60, gt=0, le=600)
    at_start: bool = False

    @model_validator(mode="after")
    def _one_moment(self) -> Trigger:
        if self.at_start and (self.after_recorded or self.after_acknowledged):
            raise ValueError("at_start injects before anything is recorded: leave "
                             "after_recorded and after_acknowledged at 0")
        return self


class Fault(BaseModel):
    """One fault of a scenario: the kind injected, at what, when and for how long."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    kind: str
    target: str | None = None
    trigger: Trigger = Trigger()
    duration_seconds: float = Field(0, ge=0, le=120)
    params: dict[str, Any] = {}
