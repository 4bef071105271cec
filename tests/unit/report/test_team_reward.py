"""Team mode hides the reward in every report a person reads (the terminal's verdict line,
summary.md, report.html, junit.xml, the kill matrix), as docs/ci.md says; an agent task's
reports show it, so each check here can fail."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from rich.console import Console

from kit import cli, scenario
from kit.checks.result import CheckResult
from kit.cli import eval as cli_eval
from kit.evaluate.matrix import Row
from kit.report import compare, document
from kit.report.table import kill_matrix
from kit.run.result import RunResult


def _doc(trust: str) -> dict:
    """A report document of one failing run (so the reward is capped and says why)."""
    sc = scenario.load("order-pipeline")
    lost = CheckResult(id="delivery.no_loss", verdict="fail", summary="1 of 2 lost")
    run = RunResult("order-pipeline", "sol", "db_outage", 1, "fail", {"delivery.no_loss": lost})
    doc = document.build(sc.model_copy(update={"trust": trust}), "sol", [run],
                         "kit eval order-pipeline")
    return compare.attach(doc, None, "new")


def _shown(tmp_path: Path, trust: str, capsys: pytest.CaptureFixture[str]) -> dict[str, str]:
    """Every report of the document as a person reads it, by name."""
    out = tmp_path / trust
    assert cli_eval.write_reports(_doc(trust), out) == cli.EXIT_FAIL
    found = {"terminal": capsys.readouterr().err}
    return found | {name: (out / name).read_text() for name in
                    ("summary.md", "report.html", "junit.xml", "report.json")}


def test_a_team_check_shows_no_reward_in_any_report(tmp_path: Path, capsys) -> None:
    for name, text in _shown(tmp_path, "team", capsys).items():
        if name == "report.json":  # its fields are there, empty; the spec stays for merges
            doc = json.loads(text)
            assert (doc["reward"], doc["reward_detail"]) == (None, None)
            assert [run["score"] for run in doc["runs"]] == [None]
            continue
        assert "reward" not in text.lower(), name
        assert "capped" not in text, name


def test_a_merge_of_a_team_check_keeps_it_without_a_reward() -> None:
    assert document.recompute(_doc("team"))["reward"] is None
    assert document.recompute(_doc("untrusted"))["reward"] is not None


def test_an_agent_task_shows_its_reward_where_a_person_reads_it(tmp_path: Path,
                                                                capsys) -> None:
    shown = _shown(tmp_path, "untrusted", capsys)
    for name in ("terminal", "summary.md", "report.html"):
        assert "reward " in shown[name] and "capped" in shown[name], name


def _matrix(reward: bool) -> str:
    row = Row("golden", "db_outage", ())
    console = Console(record=True, width=200)
    console.print(kill_matrix([row], scenario.load("order-pipeline").reward, reward=reward))
    return console.export_text()


def test_the_kill_matrix_of_a_team_scenario_has_no_reward_column() -> None:
    assert "reward" in _matrix(True)
    assert "reward" not in _matrix(False)
