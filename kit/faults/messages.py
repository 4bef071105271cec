"""Message faults: SQS delivers a message again because its delete was lost."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from kit.faults.base import FaultKind, wait_for


class LostDeletesParams(BaseModel):
    """How many deletes are acknowledged without being performed."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    count: int = Field(5, ge=1, le=1000)
    within_seconds: float = Field(30, gt=0, le=600)  # for the deletes to come


class LostDeletes(FaultKind):
    """The next `count` deletes on the target queue are acknowledged but not performed:
    SQS redelivers those messages once their visibility timeout lapses."""

    Params = LostDeletesParams
    targets = ("queue",)

    def start(self) -> dict[str, Any]:
        self.before = self.ctx.recorder.count("fault_effect")
        self.ctx.gateway.lose_deletes(self.params.count)
        return {"target": self.ctx.target, "lost_deletes": self.params.count}

    def window(self) -> None:
        # The window closes when the deletes have been lost (an event, not a clock).
        wait_for(self.ctx, lambda: self.ctx.recorder.count("fault_effect") - self.before
                 >= self.params.count, self.params.within_seconds,
                 f"{self.params.count} deletes by workers")

    def heal(self) -> None:
        self.ctx.gateway.lose_deletes(-self.ctx.gateway.lost_deletes)
