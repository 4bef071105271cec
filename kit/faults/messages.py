"""Message faults: SQS delivers a message again because its delete was lost."""

from __future__ import annotations

from typing import Any

from kit.faults.base import FaultContext, wait_for

LOST_TIMEOUT = 30.0


class DuplicateDelivery:
    """The next `lost_deletes` deletes are acknowledged but not performed: redelivery."""

    def start(self, ctx: FaultContext) -> dict[str, Any]:
        self.count = int(ctx.spec.params.get("lost_deletes", 5))
        self.before = _lost(ctx)
        ctx.gateway.lose_deletes(self.count)
        return {"lost_deletes": self.count}

    def window(self, ctx: FaultContext) -> None:
        # The window closes when the deletes have been lost (an event, not a clock).
        wait_for(ctx, lambda: _lost(ctx) - self.before >= self.count, LOST_TIMEOUT,
                 f"{self.count} deletes")

    def heal(self, ctx: FaultContext) -> None:
        ctx.gateway.lose_deletes(-ctx.gateway.lost_deletes)


def _lost(ctx: FaultContext) -> int:
    return ctx.recorder.count("fault_effect")
