"""The agent-written corpus (results/agents/<agent>/<scenario>/: solutions written from the
scenario's prompt.md alone, never from its golden, variants or the kit, and their kit eval
reports): every shipped scenario has a quick and a careful attempt, and no run of any of
them was the kit's `error` (issue 45: what agents write gets a verdict). The slow test
tests/integration/test_agent_corpus.py grades them again and expects the same verdicts."""

from __future__ import annotations

import json

from kit import scenario
from tests.conftest import ROOT

AGENTS = ROOT / "results" / "agents"
PILOTS = ("pilot-quick", "pilot-careful")


def reports() -> dict[tuple[str, str], dict]:
    """(agent, scenario) -> its recorded report."""
    return {(path.parent.parent.name, path.parent.name): json.loads(path.read_text())
            for path in sorted(AGENTS.glob("*/*/report.json"))}


def test_every_scenario_has_a_quick_and_a_careful_attempt_with_its_solution() -> None:
    found = reports()
    for name in scenario.known():
        for agent in PILOTS:
            assert (agent, name) in found, f"results/agents/{agent}/{name}/report.json"
            assert (AGENTS / agent / name / "solution").is_dir()
            assert found[agent, name]["scenario"] == name


def test_no_run_of_an_agent_written_solution_is_the_kits_error() -> None:
    errors = {(agent, name, run["fault"]): run.get("error")
              for (agent, name), doc in reports().items() for run in doc["runs"]
              if run["outcome"] == "error"}
    assert errors == {}


def test_each_report_ran_every_fault_of_its_scenario() -> None:
    for (agent, name), doc in reports().items():
        ran = [run["fault"] for run in doc["runs"]]
        assert sorted(ran) == sorted(scenario.load(name).faults), (agent, name)
