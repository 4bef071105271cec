"""Network faults through Toxiproxy: an outage or latency on a data plane path."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from kit.faults.base import FaultKind

NETWORK_TARGETS = ("database", "endpoint.aws")


class NetworkOutage(FaultKind):
    """The target refuses and cuts connections for the window."""

    targets = NETWORK_TARGETS
    timed = True
    at_start = True

    def start(self) -> dict[str, Any]:
        self.ctx.proxies[self.ctx.target].set_enabled(False)
        return {"target": self.ctx.target, "effect": "connections refused and cut"}

    def heal(self) -> None:
        self.ctx.proxies[self.ctx.target].set_enabled(True)


class LatencyParams(BaseModel):
    """Round-trip latency added to every exchange."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    latency_ms: int = Field(1000, gt=0, le=60_000)


class NetworkLatency(FaultKind):
    """Every round trip to the target is slowed by `latency_ms` for the window."""

    Params = LatencyParams
    targets = NETWORK_TARGETS
    timed = True
    at_start = True

    def start(self) -> dict[str, Any]:
        proxy = self.ctx.proxies[self.ctx.target]
        for stream in ("upstream", "downstream"):
            proxy.add_toxic(f"latency-{stream}", "latency",
                            {"latency": self.params.latency_ms // 2, "jitter": 0},
                            stream=stream)
        return {"target": self.ctx.target, "latency_ms": self.params.latency_ms}

    def heal(self) -> None:
        proxy = self.ctx.proxies[self.ctx.target]
        for stream in ("upstream", "downstream"):
            proxy.remove_toxic(f"latency-{stream}")
