"""A render job as the queue carries it, and the result object it becomes."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

MAX_FRAMES = 500


@dataclass(frozen=True)
class Job:
    job_id: str
    scene: str
    frames: int

    @property
    def result_key(self) -> str:
        """The result's object key: one per job, so a job done twice writes it twice."""
        return f"{self.job_id}.json"

    def result(self) -> bytes:
        """The result object: the job's fields and what was rendered."""
        return json.dumps({"job_id": self.job_id, "scene": self.scene, "frames": self.frames,
                           "rendered_frames": self.frames}).encode()


def parse(body: str) -> Job | None:
    """The job in a message body, or None when the body is not a valid job."""
    try:
        obj: Any = json.loads(body)
    except (json.JSONDecodeError, UnicodeDecodeError):
        return None
    if not isinstance(obj, dict):
        return None
    job_id, scene, frames = obj.get("job_id"), obj.get("scene"), obj.get("frames")
    if not (isinstance(job_id, str) and isinstance(scene, str)
            and isinstance(frames, int) and not isinstance(frames, bool)
            and 1 <= frames <= MAX_FRAMES):
        return None
    return Job(job_id, scene, frames)
