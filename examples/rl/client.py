"""One scripted episode against `kit serve`: reset a diagnose task, look around with the
tools, answer, submit, print the reward. A real agent replaces `choose()` with a model."""

from __future__ import annotations

import json
import sys

from kit.rl.client import KitEnv
from kit.rl.models import KitAction

TASK = "order-pipeline.diagnose.2b32c12d56"


def choose(files: dict[str, str]) -> dict[str, str]:
    """A stand-in policy: blame the database file for a hardening invariant."""
    return {"file": "rds.tf" if "rds.tf" in files else sorted(files)[0],
            "invariant": "rds.hardening"}


def main(url: str, task_id: str = TASK) -> int:
    """Play one episode; exit 0 when the reward is 1.0."""
    with KitEnv(base_url=url, message_timeout_s=900).sync() as env:
        first = env.reset(task_id=task_id, seed=1).observation
        print(first.text.splitlines()[0], f"({len(first.files)} files)")
        print("static:", env.step(KitAction(tool="static")).observation.output)
        answer = json.dumps(choose(first.files))
        env.step(KitAction(tool="write", path="DIAGNOSIS.json", content=answer))
        result = env.step(KitAction(tool="submit"))
        print(result.observation.output)
        return 0 if result.reward == 1.0 else 1


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
