"""Lambda function faults: invocations that run past their timeout, and throttling.

Both aim at a `function.*` resource whose consumer the kit's Lambda service runs
(kit/lambdas/), and act where AWS would: on the function's dependencies and on its
deployed concurrency, never on the kit's poller.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from kit.faults.base import FaultKind

STREAMS = ("upstream", "downstream")
TOXIC = "function-timeout"


class TimeoutParams(BaseModel):
    """How far past the function's own timeout one round trip to a dependency runs."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    beyond_seconds: float = Field(1.0, gt=0, le=60)


class FunctionTimeout(FaultKind):
    """Every dependency of the function (its AWS endpoint, its databases) answers one round
    trip later than the function's timeout, for the window: an invocation that calls one
    runs out of time and is killed at the timeout, a failed invocation.

    Why latency and not a lowered Timeout: a real timeout comes from a slow downstream
    while the function keeps the timeout it was deployed with, so the relation this fault
    exposes (the queue's visibility timeout against the function's timeout, "Using Lambda
    with Amazon SQS") is the solution's own; lowering the timeout would change it. The
    mapping's poller talks to SQS from inside the Lambda service and is not slowed. The
    window lasts at least the timeout plus `beyond_seconds`.
    """

    Params = TimeoutParams
    targets = ("function",)
    timed = True
    _hold = 0.0

    def start(self) -> dict[str, Any]:
        admin = self.ctx.gateway.admin_client("lambda")
        timeout = admin.get_function_configuration(FunctionName=self.value("arn"))["Timeout"]
        self._hold = max(self.ctx.spec.duration_seconds, timeout + self.params.beyond_seconds)
        latency = int((timeout + self.params.beyond_seconds) * 1000)
        for proxy in self.ctx.proxies.values():
            for stream in STREAMS:
                proxy.add_toxic(f"{TOXIC}-{stream}", "latency",
                                {"latency": latency // 2, "jitter": 0}, stream=stream)
        return {"target": self.ctx.target, "function_timeout_seconds": timeout,
                "dependency_latency_ms": latency, "dependencies": sorted(self.ctx.proxies)}

    def window(self) -> None:
        # At least the timeout and its margin: a healed proxy lets the delayed answers
        # through at once, so a shorter window would end before any invocation timed out.
        self.ctx.stopping.wait(self._hold)

    def heal(self) -> None:
        for proxy in self.ctx.proxies.values():
            for stream in STREAMS:
                proxy.remove_toxic(f"{TOXIC}-{stream}")


class ThrottleParams(BaseModel):
    """The reserved concurrency the function is held to for the window."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    concurrency: int = Field(0, ge=0, le=1000)


class FunctionThrottle(FaultKind):
    """The function's reserved concurrency is set to `concurrency` for the window, as
    PutFunctionConcurrency would: invocations beyond it are throttled, and the batches the
    mapping received for them return to the queue after the visibility timeout
    ("Configuring scaling behavior for SQS event source mappings"); 0 stops every
    invocation ("Configuring reserved concurrency"). heal puts back what was deployed."""

    Params = ThrottleParams
    targets = ("function",)
    timed = True
    _before: int | None = None

    def start(self) -> dict[str, Any]:
        admin = self.ctx.gateway.admin_client("lambda")
        arn = self.value("arn")
        self._before = admin.get_function_concurrency(FunctionName=arn).get(
            "ReservedConcurrentExecutions")
        admin.put_function_concurrency(FunctionName=arn,
                                       ReservedConcurrentExecutions=self.params.concurrency)
        return {"target": self.ctx.target, "reserved_concurrency": self.params.concurrency,
                "deployed": self._before}

    def heal(self) -> dict[str, Any]:
        admin = self.ctx.gateway.admin_client("lambda")
        arn = self.value("arn")
        if self._before is None:
            admin.delete_function_concurrency(FunctionName=arn)
        else:
            admin.put_function_concurrency(FunctionName=arn,
                                           ReservedConcurrentExecutions=self._before)
        return {"target": self.ctx.target, "reserved_concurrency": self._before}
