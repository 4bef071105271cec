"""The rds-recovery drill end to end: the golden under every fault (one seed), and one
variant per invariant killed by it. The full matrix is `kit validate rds-recovery`."""

from __future__ import annotations

from pathlib import Path

import pytest

from kit import scenario
from kit.run import RunResult
from kit.validate import validate

SCENARIO = scenario.load("rds-recovery")
# One variant per invariant the drill measures.
VARIANTS = {"restore-latest-snapshot": "recovery.rpo", "restore-to-latest": "recovery.consistent",
            "single-az": "recovery.rto", "restore-unprotected": "rds.deletion_protection",
            "operator-rds-star": "iam.least_privilege"}


def _explain(result: RunResult) -> str:
    bad = {i: r.summary for i, r in result.results.items() if r.verdict != "pass"}
    return f"{result.fault} seed {result.seed}: {result.outcome} {result.error or ''} {bad}"


@pytest.mark.timeout(1500)
def test_golden_passes_every_fault_and_each_invariant_kills_its_variant(tmp_path: Path) -> None:
    rows = validate(SCENARIO, tmp_path, jobs=2, only={"golden", *VARIANTS})
    failing = {f"{row.subject}/{row.fault}": [_explain(r) for r in row.runs]
               for row in rows if not row.ok}
    assert not failing, failing
    golden = [row for row in rows if row.subject == "golden"]
    assert [row.fault for row in golden] == list(SCENARIO.faults)
    killed = {row.subject: row.expected for row in rows if row.subject != "golden"}
    assert all(VARIANTS[name] in must for name, must in killed.items())
    crash = next(row for row in golden if row.fault == "instance_crash").runs[0]
    assert crash.results["recovery.rto"].evidence["recovered_in_seconds"] < 6
    assert (tmp_path / "golden" / "bad_migration-seed1" / "runbook.log").exists()
