"""The report document: one versioned JSON structure every other format is rendered from.

Format `kit.report/1`:
  format, command (how to reproduce), scenario, solution, outcome (pass|fail|error),
  reward (number in [0, 1] or null), runs: [
    {fault, seed, outcome, error, reward, timings {stage: seconds}, run_dir,
     invariants {id: {id, verdict, summary, evidence, params}}}]

Reward of a run = passed invariants / the scenario's invariants; a run that did not deploy
judges only its deploy invariants, so the others count as not passed (reward 0 for a
solution that does not deploy). A run with outcome `error` has reward null: the kit could
not judge it, so it is neither rewarded nor punished. The document's reward is the mean over
runs with a reward (null when there is none).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from kit.checks import worst
from kit.run import RunResult
from kit.scenario import Scenario

FORMAT = "kit.report/1"


def run_reward(scenario: Scenario, run: RunResult) -> float | None:
    """Passed invariants over the scenario's invariants; None for a run the kit could not judge."""
    if run.outcome == "error":
        return None
    ids = set(scenario.invariants) | set(run.results)
    passed = sum(1 for i in ids if i in run.results and run.results[i].verdict == "pass")
    return round(passed / len(ids), 4) if ids else None


def build(scenario: Scenario, solution: str, runs: Sequence[RunResult], command: str
          ) -> dict[str, Any]:
    """The report document for a set of runs of one solution."""
    rewards = [r for r in (run_reward(scenario, run) for run in runs) if r is not None]
    return {
        "format": FORMAT,
        "command": command,
        "scenario": scenario.name,
        "solution": solution,
        "outcome": worst([run.outcome for run in runs]) if runs else "error",
        "reward": round(sum(rewards) / len(rewards), 4) if rewards else None,
        "runs": [run.to_dict() | {"reward": run_reward(scenario, run)} for run in runs],
    }


def write(document: dict[str, Any], path: Path) -> Path:
    """Write the document as JSON."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(document, indent=2))
    return path
