"""Network faults through Toxiproxy: outages and latency on the database or SQS path."""

from __future__ import annotations

from typing import Any

from kit.faults.base import FaultContext, Timed


class DbOutage(Timed):
    """The database refuses and cuts connections for the window."""

    def start(self, ctx: FaultContext) -> dict[str, Any]:
        ctx.db_proxy.set_enabled(False)
        return {"target": "database", "effect": "connections refused and cut"}

    def heal(self, ctx: FaultContext) -> None:
        ctx.db_proxy.set_enabled(True)


class DbLatency(Timed):
    """Every database round trip is slowed by `latency_ms` for the window."""

    def start(self, ctx: FaultContext) -> dict[str, Any]:
        latency = int(ctx.spec.params.get("latency_ms", 1000))
        for stream in ("upstream", "downstream"):
            ctx.db_proxy.add_toxic(f"latency-{stream}", "latency",
                                   {"latency": latency // 2, "jitter": 0}, stream=stream)
        return {"target": "database", "latency_ms": latency}

    def heal(self, ctx: FaultContext) -> None:
        for stream in ("upstream", "downstream"):
            ctx.db_proxy.remove_toxic(f"latency-{stream}")


class SqsOutage(Timed):
    """SQS refuses and cuts the workers' connections for the window."""

    def start(self, ctx: FaultContext) -> dict[str, Any]:
        ctx.sqs_proxy.set_enabled(False)
        return {"target": "sqs", "effect": "connections refused and cut"}

    def heal(self, ctx: FaultContext) -> None:
        ctx.sqs_proxy.set_enabled(True)
