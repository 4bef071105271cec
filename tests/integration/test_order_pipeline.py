"""The order-pipeline scenario end to end: real Terraform, moto, Toxiproxy, PostgreSQL."""

from __future__ import annotations

from pathlib import Path

import pytest

from kit import scenario, variants
from kit.run import RunResult
from kit.validate import validate

SCENARIO = scenario.load("order-pipeline")
SEEDS = (1, 2, 3, 4, 5)


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


def test_correct_alternatives_pass(tmp_path: Path) -> None:
    names = {v.name for v in variants.load_all(SCENARIO) if v.must_pass}
    assert len(names) >= 2
    rows = validate(SCENARIO, tmp_path, jobs=2, golden=False, only=names)
    failing = [_explain(r) for row in rows for r in row.runs if not row.ok]
    assert not failing, failing
