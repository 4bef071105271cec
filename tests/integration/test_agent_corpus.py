"""The agent-written corpus graded again (the slow tier: 14 solutions under every fault of
their scenario, ~20 min on 2 cores): each run gets `pass` or `fail`, never the kit's
`error` (results/agents/, tests/unit/test_agent_corpus.py). Not compared with the recorded
verdicts: pilot-quick's order-pipeline missed its RTO by 11 ms, a solution on the edge of
its contract rather than a verdict of the kit's that flips."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.unit.test_agent_corpus import AGENTS, reports

pytestmark = [pytest.mark.integration, pytest.mark.slow]
KIT = Path(sys.executable).parent / "kit"


@pytest.mark.timeout(1800)
@pytest.mark.parametrize(("agent", "name"), sorted(reports()))
def test_an_agent_written_solution_gets_a_verdict_in_every_run(agent: str, name: str,
                                                                tmp_path: Path) -> None:
    solution = AGENTS / agent / name / "solution"
    subprocess.run([str(KIT), "eval", name, "--solution", str(solution), "--jobs", "2",
                    "--out", str(tmp_path)], capture_output=True, text=True, timeout=1700,
                   check=False)
    [report] = tmp_path.glob(f"{name}/*/report.json")
    outcomes = {run["fault"]: run["outcome"] for run in json.loads(report.read_text())["runs"]}
    assert "error" not in outcomes.values(), outcomes
