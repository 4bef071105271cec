"""Clock faults: the workers' clock and AWS's disagree by a seeded amount, then agree again.

A host whose clock is off signs every AWS request with the wrong time, and AWS refuses
requests signed more than 15 minutes away from its own clock (SignatureDoesNotMatch,
"Signature expired" or "Signature not yet current"; kit/gateway/sigv4.py). boto3 does not
correct for skew by itself (boto/boto3#1252), so a worker sees every AWS call fail until
the clocks agree again: it must neither lose messages nor give up for good.

How: on the server side. For the window, the gateway judges the signatures of the workers'
requests (every session the supervisor's workers hold, and any they assume from it)
against AWS's clock moved by the offset (`sigv4.Clock`); the producer's and the kit's
requests are judged as before. The workers' own clock, their environment and their files
are exactly those of a run without the fault: nothing announces it, and nothing a worker
does can remove it (re-executing itself, scrubbing its environment, reading the time from
a raw system call).

Why not on the worker side: libfaketime (LD_PRELOAD, or a read-only /etc/ld.so.preload with
the system-wide /etc/faketimerc) is undone from inside the sandbox: its own environment
variables (FAKETIME, FAKETIME_ONLY_CMDS, FAKETIME_TIMESTAMP_FILE) and ~/.faketimerc take
precedence over the system-wide file, its cache is only turned off by an environment
variable (FAKETIME_NO_CACHE; otherwise the offset is re-read every 10 s, which blurs a
10 s window), and a raw clock_gettime system call or the vDSO (ctypes) bypass any preload.
Linux time namespaces move only the monotonic and boot clocks, never the wall clock. What
the fault is about, AWS refusing what the workers sign, is what the gateway decides, so
that is where the skew lives. What the workers lose: their wall clock (time.time(), the
database's now()) still agrees with the kit's during the window, so a worker cannot see
the skew by comparing clocks, only through AWS's refusals (whose messages give AWS's time,
as AWS's do); the only variant this fault kills (fifo-ledger's gives-up-on-clock-errors)
relies on the refusals alone.
"""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from kit.faults.base import FaultBroken, FaultKind


class SkewParams(BaseModel):
    """The range the offset is drawn from (seeded), and in which direction."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    min_seconds: int = Field(1200, ge=1, le=7 * 86400)
    max_seconds: int = Field(2400, ge=1, le=7 * 86400)
    direction: Literal["ahead", "behind", "either"] = "either"

    @model_validator(mode="after")
    def _ordered(self) -> SkewParams:
        if self.min_seconds > self.max_seconds:
            raise ValueError("min_seconds must not exceed max_seconds")
        return self


def draw_offset(seed: int, params: SkewParams) -> int:
    """The workers' clock minus AWS's, in seconds, for `seed` (positive: ahead)."""
    rng = random.Random(f"clock_skew:{seed}")
    offset = rng.randint(params.min_seconds, params.max_seconds)
    ahead = {"ahead": True, "behind": False}.get(params.direction, rng.random() < 0.5)
    return offset if ahead else -offset


class ClockSkew(FaultKind):
    """The workers' clock is off from AWS's by a seeded offset for the window."""

    Params = SkewParams
    targets = ("workers",)
    timed = True

    def start(self) -> dict[str, Any]:
        supervisor = self.ctx.supervisor
        if supervisor is None:
            raise FaultBroken("clock_skew targets the workers, but this run has none")
        offset = draw_offset(self.ctx.seed, self.params)
        self.ctx.gateway.guard.clock.skew(timedelta(seconds=offset), supervisor.owns)
        return {"target": "workers", "offset_seconds": offset,
                "effect": "the workers' clock is off from AWS's; AWS refuses what they sign"}

    def heal(self) -> None:
        self.ctx.gateway.guard.clock.reset()
