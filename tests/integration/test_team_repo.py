"""examples/team-repo, checked as it is (issue 24's acceptance): each of its two consumers,
the Lambda function (SNS -> SQS -> Lambda -> DynamoDB) and the ECS-style worker (SNS -> SQS
-> worker -> PostgreSQL), passes under a fault with zero edits to the repository: its S3
backend, provider profile, module outside infra/, service-principal trust policies and
requirements stay as the team wrote them, and the tree is byte-identical afterwards.
Its defect variants are judged by `make validate` (kit validate --scenarios
examples/team-repo/.kit <scenario>)."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from kit import scenario as scenarios
from kit.run.pipeline import run_once
from tests.conftest import ROOT

REPO = ROOT / "examples" / "team-repo"


def _tree(path: Path) -> dict[str, str]:
    return {str(p.relative_to(path)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(path.rglob("*")) if p.is_file() and "__pycache__" not in p.parts}


# The ECS scenario's row is slow (make validate, which also runs its whole matrix): its
# workers, built from the team's own directory, are test_team_workers.py's in make test.
@pytest.mark.parametrize(("name", "fault"), [
    ("team-orders-lambda", "duplicate_delivery"),
    pytest.param("team-orders-ecs", "duplicate_delivery", marks=pytest.mark.slow)])
def test_the_team_repository_passes_as_it_is(name: str, fault: str, tmp_path: Path) -> None:
    before = _tree(REPO)
    sc = scenarios.load(REPO / ".kit" / "scenarios" / name / "scenario.yaml")
    assert sc.trust == "team" and sc.golden == REPO.resolve()
    result = run_once(sc, sc.golden, fault, 1, tmp_path / "run")
    failed = {i: r.summary for i, r in result.results.items() if r.verdict != "pass"}
    assert (result.outcome, result.error, failed) == ("pass", None, {})
    assert _tree(REPO) == before, "the repository was modified"
