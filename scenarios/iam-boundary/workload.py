"""iam-boundary's workload: seeded render jobs, a few submitted twice.

A job is valid (prompt.md, "Jobs") when its body is a JSON object whose job_id and scene
are strings and whose frames is an integer (not a boolean) from 1 to 500. The producer
only sends valid jobs: this scenario is about who may do what, not about poison.
"""

from __future__ import annotations

import json
import random
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from kit.workload.api import Described, Send, run_tag

MAX_FRAMES = 500


class Params(BaseModel):
    """workload.params of scenario.yaml."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    jobs: int = Field(ge=1, le=10_000)  # distinct jobs
    scenes: int = Field(ge=1)
    duplicate_sends: int = Field(ge=0)  # jobs submitted a second time (a new message id)
    work_seconds: float = Field(ge=0)  # the worker renders each job this long


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def describe(body: str) -> Described:
    """The job fields of a body and whether it is a valid job."""
    try:
        obj = json.loads(body)
    except (json.JSONDecodeError, UnicodeDecodeError, TypeError):
        obj = None
    if not isinstance(obj, dict):
        return Described(None, {}, False)
    job_id, scene, frames = obj.get("job_id"), obj.get("scene"), obj.get("frames")
    fields = {"job_id": job_id if isinstance(job_id, str) else None,
              "scene": scene if isinstance(scene, str) else None,
              "frames": frames if _is_int(frames) else None}
    valid = (fields["job_id"] is not None and fields["scene"] is not None
             and fields["frames"] is not None and 1 <= fields["frames"] <= MAX_FRAMES)
    return Described(fields["job_id"], fields, valid)


def plan(seed: int, params: Params) -> list[Send]:
    """A deterministic plan for `seed`: shuffled jobs, each resubmission somewhere after
    its original (as a retried submission would be)."""
    rng = random.Random(seed)
    tag = run_tag(seed, "iam-boundary")
    bodies = [json.dumps({"job_id": f"j-{tag}-{i:04d}",
                          "scene": f"scene-{rng.randrange(params.scenes)}",
                          "frames": rng.randint(1, MAX_FRAMES)})
              for i in range(params.jobs)]
    rng.shuffle(bodies)
    sends = list(bodies)
    for body in rng.sample(bodies, min(params.duplicate_sends, len(bodies))):
        sends.insert(rng.randint(sends.index(body) + 1, len(sends)), body)
    first: dict[str, int] = {}
    out = []
    for index, body in enumerate(sends):
        out.append(Send(body, duplicate_of=first.get(body)))
        first.setdefault(body, index)
    return out
