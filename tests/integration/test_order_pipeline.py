"""The order-pipeline scenario end to end: real Terraform, moto, Toxiproxy, PostgreSQL."""

from __future__ import annotations

from pathlib import Path

import pytest

from kit import scenario
from kit.run import RunResult, run_once
from kit.sandbox import Sandbox
from kit.validate import validate
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


@pytest.mark.timeout(3000)
def test_golden_passes_every_invariant_under_every_fault_for_five_seeds(tmp_path: Path) -> None:
    rows = validate(SCENARIO, tmp_path, repeat=len(SEEDS), jobs=2, only={"golden"})
    assert [row.fault for row in rows] == list(SCENARIO.faults)
    failing = {f"{row.fault}": [_explain(r) for r in row.runs if r.outcome != "pass"]
               for row in rows if not row.ok}
    assert not failing, failing
    for row in rows:
        assert [r.seed for r in row.runs] == list(SEEDS)
        assert all(set(r.results) == set(SCENARIO.invariants) for r in row.runs)
    assert (tmp_path / "golden" / "none-seed1" / "history.json").exists()


@pytest.mark.parametrize("fault", ["none", "worker_crash", "db_outage"])
@pytest.mark.parametrize("solution", ALTERNATIVES, ids=lambda p: p.name)
def test_correct_alternatives_pass(sandbox: Sandbox, tmp_path: Path, solution: Path,
                                   fault: str) -> None:
    result = run_once(SCENARIO, solution, fault, 1, tmp_path, sandbox)
    assert result.outcome == "pass", _explain(result)


def test_there_are_at_least_two_alternatives() -> None:
    assert len(ALTERNATIVES) >= 2
