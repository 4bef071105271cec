"""The order-pipeline scenario end to end: real Terraform, moto, Toxiproxy, PostgreSQL."""

from __future__ import annotations

from pathlib import Path

import pytest

from kit import scenario
from kit.run import RunResult, run_once
from kit.sandbox import Sandbox
from tests.conftest import ROOT

SCENARIO = scenario.load("order-pipeline")
SEEDS = (1, 2, 3, 4, 5)
ALTERNATIVES = sorted((ROOT / "tests" / "solutions").glob("order-pipeline-alt-*"))


@pytest.fixture(scope="module")
def sandbox():  # noqa: ANN201
    with Sandbox(provider=True) as sb:
        yield sb


def _explain(result: RunResult) -> str:
    bad = {i: r.summary for i, r in result.results.items() if r.verdict != "pass"}
    return f"{result.fault} seed {result.seed}: {result.outcome} {result.error or ''} {bad}"


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("fault", list(SCENARIO.faults))
def test_golden_passes_every_invariant(sandbox: Sandbox, tmp_path: Path, fault: str,
                                       seed: int) -> None:
    result = run_once(SCENARIO, SCENARIO.golden, fault, seed, tmp_path, sandbox)
    assert result.outcome == "pass", _explain(result)
    assert set(result.results) == set(SCENARIO.invariants)
    assert (tmp_path / "history.json").exists() and (tmp_path / "result.json").exists()


@pytest.mark.parametrize("fault", ["none", "worker_crash", "db_outage"])
@pytest.mark.parametrize("solution", ALTERNATIVES, ids=lambda p: p.name)
def test_correct_alternatives_pass(sandbox: Sandbox, tmp_path: Path, solution: Path,
                                   fault: str) -> None:
    result = run_once(SCENARIO, solution, fault, 1, tmp_path, sandbox)
    assert result.outcome == "pass", _explain(result)


def test_there_are_at_least_two_alternatives() -> None:
    assert len(ALTERNATIVES) >= 2
