"""docs/difficulty.md (bench/difficulty.py): the share of happy-path defects per scenario,
read from the variants and the 10-seed matrices, and the agents' scores table."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench import difficulty
from kit import scenario
from kit.errors import InputError
from kit.variants import Variant

BLOCK = """<!-- determinism-demo:begin -->
| subject | fault | must fail | statuses | every invariant agrees |
| --- | --- | --- | --- | --- |
| golden | none | – | pass ×10 | yes |
| no-redrive | none | delivery.poison_to_dlq | killed ×10 | yes |
| short-visibility | db_latency | delivery.no_concurrent_processing | killed ×9, survived ×1 | no |
<!-- determinism-demo:end -->
"""


def _defect(name: str, fault: str, *must_fail: str) -> Variant:
    return Variant(name=name, defect="d", why="w", fault=fault, must_fail=must_fail,
                   together="t" if len(must_fail) > 1 else None)


def test_a_defect_is_happy_path_only_when_it_shows_without_a_fault() -> None:
    variants = [_defect("short-visibility", "db_latency", "delivery.no_concurrent_processing"),
                _defect("no-redrive", "none", "delivery.poison_to_dlq"),
                _defect("unmeasured", "worker_crash", "delivery.no_loss"),
                Variant(name="alt", alternative="a", must_pass=True)]
    found = difficulty.rows(variants, difficulty.matrix(BLOCK, "demo"))
    assert [(r.variant, r.happy_path, r.measured) for r in found] == [
        ("no-redrive", True, "killed ×10"),
        ("short-visibility", False, "killed ×9, survived ×1, seeds disagree"),
        ("unmeasured", False, "not in the matrix")]
    assert difficulty.share(found) == "1 of 3 (33 %)"
    assert difficulty.matrix(BLOCK, "other") == {}


def test_the_document_is_what_the_variants_and_matrices_say_now(monkeypatch) -> None:
    """Fails when a variant or scenario was added without running bench/difficulty.py."""
    # the shipped scenarios only: a CLI test's --scenarios leaves its roots in the environment
    monkeypatch.delenv(scenario.ENV_ROOTS, raising=False)
    text = difficulty.variants_table(scenario.known(), difficulty.BENCHMARKS.read_text())
    assert f"<!-- difficulty:begin -->\n{text}<!-- difficulty:end -->" in \
        difficulty.DOC.read_text()


def _record(folder: Path, agent: str, name: str, report: object,
            solution: bool = True) -> Path:
    where = folder / agent / name
    (where / "solution").mkdir(parents=True) if solution else where.mkdir(parents=True)
    (where / "report.json").write_text(json.dumps(report))
    return where / "report.json"


def test_agents_scores_are_tabled_per_scenario(tmp_path: Path) -> None:
    _record(tmp_path, "agent-a", "order-pipeline", {"scenario": "order-pipeline",
                                                    "reward": 1.0})
    _record(tmp_path, "agent-a", "rds-recovery", {"scenario": "rds-recovery", "reward": 0.25})
    _record(tmp_path, "agent-b", "order-pipeline", {"scenario": "order-pipeline",
                                                    "reward": 0.5})
    _record(tmp_path, "agent-b", "fifo-ledger", {"scenario": "fifo-ledger", "reward": None})
    table = difficulty.scores_table(difficulty.scores(tmp_path))
    assert table.splitlines() == [
        "| agent | fifo-ledger | order-pipeline | rds-recovery |",
        "| --- | --- | --- | --- |",
        "| agent-a |  | 1.00 | 0.25 |",
        "| agent-b | error | 0.50 |  |",
        "| **mean** |  | 0.75 | 0.25 |"]


@pytest.mark.parametrize(("report", "solution", "named"), [
    ({"scenario": "fifo-ledger", "reward": 1.0}, True, "field scenario is 'fifo-ledger'"),
    ({"scenario": "order-pipeline", "reward": "high"}, True, "field reward is 'high'"),
    ({"scenario": "order-pipeline", "reward": 1.0}, False, "solution: missing"),
    ([1, 2], True, "not a JSON object"),
])
def test_a_bad_record_is_refused_naming_its_file(tmp_path: Path, report: object,
                                                 solution: bool, named: str) -> None:
    path = _record(tmp_path, "agent", "order-pipeline", report, solution)
    with pytest.raises(InputError, match=named) as caught:
        difficulty.scores(tmp_path)
    assert str(path.parent) in str(caught.value)


def test_the_command_line_reports_bad_input_without_a_traceback(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "a" / "order-pipeline").mkdir(parents=True)
    (tmp_path / "a" / "order-pipeline" / "report.json").write_text("{")
    assert difficulty.main(["scores", str(tmp_path)]) == 2
    assert "report.json: not a kit eval report" in capsys.readouterr().err
    assert difficulty.main(["scores", str(tmp_path / "missing")]) == 2
    assert difficulty.main(["bogus"]) == 2
