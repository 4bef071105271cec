"""examples/team-repo, checked as it is (issue 24's acceptance): each of its two consumers,
the Lambda function (SNS -> SQS -> Lambda -> DynamoDB) and the ECS-style worker (SNS -> SQS
-> worker -> PostgreSQL), passes under a fault with zero edits to the repository: its S3
backend, provider profile, module outside infra/, service-principal trust policies and
requirements stay as the team wrote them, and the tree is byte-identical afterwards.
Its defect variants are judged by `make validate` (kit validate --scenarios
examples/team-repo/.kit <scenario>)."""

from __future__ import annotations

import hashlib
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from kit import scenario as scenarios
from kit.run.pipeline import run_once
from tests.conftest import ROOT

REPO = ROOT / "examples" / "team-repo"


def _tree(path: Path) -> dict[str, str]:
    return {str(p.relative_to(path)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(path.rglob("*")) if p.is_file() and "__pycache__" not in p.parts}


CASES = [("team-orders-lambda", "duplicate_delivery"), ("team-orders-ecs", "duplicate_delivery")]


# Both consumers in one test, each run in its thread with a sandbox of its own (as `kit
# validate --jobs 2` runs rows): most of a run is waiting for SQS to redeliver, so two at
# once take one run's time of a worker, not two. The limit is the two tests' it replaces.
@pytest.mark.timeout(1200)
def test_the_team_repository_passes_as_it_is(tmp_path: Path) -> None:
    before = _tree(REPO)

    def one(case: tuple[str, str]) -> tuple[str, str | None, dict[str, str]]:
        name, fault = case
        sc = scenarios.load(REPO / ".kit" / "scenarios" / name / "scenario.yaml")
        assert sc.trust == "team" and sc.golden == REPO.resolve(), name
        result = run_once(sc, sc.golden, fault, 1, tmp_path / name)
        failed = {i: r.summary for i, r in result.results.items() if r.verdict != "pass"}
        return result.outcome, result.error, failed

    with ThreadPoolExecutor(max_workers=len(CASES), thread_name_prefix="team") as pool:
        outcomes = dict(zip(CASES, pool.map(one, CASES), strict=True))
    assert outcomes == {case: ("pass", None, {}) for case in CASES}
    assert _tree(REPO) == before, "the repository was modified"
