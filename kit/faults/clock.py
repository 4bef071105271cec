"""Clock faults: the workers' wall clock jumps by a seeded amount, then is corrected.

A host whose clock is off signs every AWS request with the wrong time, and AWS refuses
requests signed more than 15 minutes away from its own clock (SignatureDoesNotMatch,
"Signature expired"; the gateway enforces the same window, kit/gateway/sigv4.py). boto3
does not correct for skew by itself (boto/boto3#1252), so a worker sees every AWS call
fail until the clock is corrected: it must neither lose messages nor give up for good.

How: every worker of a run with this fault starts with libfaketime preloaded, reading its
offset from a file the nemesis rewrites (`FAKETIME_TIMESTAMP_FILE`, read on every call).
Only the wall clock (CLOCK_REALTIME) moves, as when NTP steps a clock: CLOCK_MONOTONIC,
which timeouts and leases should use, is left alone (`DONT_FAKE_MONOTONIC`).
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from kit.deploy.toolchain import faketime_library
from kit.errors import ToolchainError
from kit.faults.base import FaultKind

CLOCK_FILE = "clock-offset"


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


class ClockSkew(FaultKind):
    """The workers' wall clock is off by a seeded offset for the window."""

    Params = SkewParams
    targets = ("workers",)
    timed = True

    @staticmethod
    def worker_env(work: Path) -> dict[str, str]:
        """The environment that lets the nemesis move the workers' clock."""
        library = faketime_library()
        if library is None:
            raise ToolchainError("libfaketime is missing (the clock_skew fault needs it): "
                                 "run `make setup`")
        clock = work / CLOCK_FILE
        clock.write_text("+0\n")
        clock.chmod(0o644)
        return {"LD_PRELOAD": str(library), "FAKETIME_TIMESTAMP_FILE": str(clock),
                "FAKETIME_NO_CACHE": "1", "DONT_FAKE_MONOTONIC": "1"}

    def _set(self, offset: int) -> None:
        (self.ctx.work / CLOCK_FILE).write_text(f"{offset:+d}\n")

    def start(self) -> dict[str, Any]:
        rng = random.Random(f"clock_skew:{self.ctx.seed}")
        offset = rng.randint(self.params.min_seconds, self.params.max_seconds)
        ahead = {"ahead": True, "behind": False}.get(self.params.direction, rng.random() < 0.5)
        offset = offset if ahead else -offset
        self._set(offset)
        return {"target": "workers", "offset_seconds": offset,
                "effect": "the workers' wall clock is off; AWS refuses what they sign"}

    def heal(self) -> None:
        self._set(0)
