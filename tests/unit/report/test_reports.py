from __future__ import annotations

from pathlib import Path

import junitparser

from kit import scenario
from kit.checks.result import CheckResult
from kit.report import document, junit, markdown
from kit.run import RunResult


def _run(fault: str, verdicts: dict[str, str], error: str | None = None) -> RunResult:
    results = {i: CheckResult(id=i, verdict=v, summary=f"{i} {v}: lost order o-1-0003",
                              evidence={"lost": {"count": 1, "members": ["o-1-0003"]}},
                              params={}) for i, v in verdicts.items()}
    outcome = "error" if error else ("fail" if "fail" in verdicts.values() else "pass")
    return RunResult("order-pipeline", "sol", fault, 1, outcome, results, error,
                     {"deploy": 1.5, "workload": 3.0})


def _doc() -> dict:
    sc = scenario.load("order-pipeline")
    all_pass = dict.fromkeys(sc.invariants, "pass")
    runs = [_run("none", all_pass), _run("worker_crash", all_pass | {"delivery.no_loss": "fail"}),
            _run("db_outage", {}, error="toxiproxy died")]
    return document.build(sc, "sol", runs, "kit eval order-pipeline --solution sol --seed 1")


def test_document_outcome_and_reward() -> None:
    doc = _doc()
    sc = scenario.load("order-pipeline")
    n = len(sc.invariants)
    assert doc["format"] == document.FORMAT
    assert doc["outcome"] == "error"
    assert [r["score"] for r in doc["runs"]] == [1.0, (n - 1) / n, None]
    # The lost order caps the reward; the errored run is left out and counted.
    assert doc["reward"] == round(sc.reward.ceiling * (1.0 + (n - 1) / n) / 2, 4)
    assert doc["reward_detail"]["excluded_runs"] == [{"fault": "db_outage", "seed": 1}]


def test_junit_loads_and_failures_name_the_evidence(tmp_path: Path) -> None:
    path = junit.write(_doc(), tmp_path / "junit.xml")
    xml = junitparser.JUnitXml.fromfile(str(path))
    suites = list(xml)
    assert len(suites) == 3
    failed = [(case.classname, case.name, res.message) for suite in suites for case in suite
              for res in case.result if isinstance(res, junitparser.Failure)]
    assert failed == [("order-pipeline.worker_crash", "delivery.no_loss",
                       "delivery.no_loss fail: lost order o-1-0003")]
    errors = [case.name for suite in suites for case in suite for res in case.result
              if isinstance(res, junitparser.Error)]
    assert errors == ["run"]


def test_markdown_has_the_table_and_the_evidence() -> None:
    text = markdown.render(_doc())
    assert "| `delivery.no_loss` | pass | **FAIL** | - |" in text
    assert "o-1-0003" in text
    assert "could not judge" in text


def test_tables_off_a_terminal_are_never_cut(capsys) -> None:  # noqa: ANN001
    from rich.table import Table

    from kit.report.show import show

    table = Table(title="t")
    for name in ("invariant", *(f"fault-number-{n}\nseed 1" for n in range(9))):
        table.add_column(name)
    table.add_row("delivery.no_concurrent_processing", *(["[red]FAIL[/]"] * 9))
    show(table)
    out = capsys.readouterr().out
    assert "delivery.no_concurrent_processing" in out and "…" not in out
    assert "fault-number-8" in out and "\x1b[" not in out
