from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import junitparser

from kit import scenario
from kit.checks.result import CheckResult
from kit.iam.usage import used_vs_granted
from kit.report import document, junit, markdown
from kit.run.result import RunResult

from ..checks.builder import ARN, HistoryBuilder, allow, healthy_iam


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
    # A failed run outranks the errored one (an error must not hide a fail): `fail`.
    assert doc["outcome"] == "fail"
    assert [r["score"] for r in doc["runs"]] == [1.0, (n - 1) / n, None]
    # The lost order caps the reward; the errored run is left out and counted.
    assert doc["reward"] == round(sc.reward.ceiling * (1.0 + (n - 1) / n) / 2, 4)
    assert doc["reward_detail"]["excluded_runs"] == [{"fault": "db_outage", "seed": 1,
                                                      "cause": "kit"}]
    assert doc["reward_detail"]["excluded_by_cause"] == {"kit": 1}


def test_an_emulator_gap_is_counted_apart_from_the_kits_errors() -> None:
    gap = {"verdict": "error", "evidence": {"gaps": ["moto.not-implemented: logs X"]}}
    broke = {"verdict": "error", "evidence": {"diagnostics": ["mirror lacks 9.9"]}}
    runs = [{"outcome": "error", "invariants": {"deploy.applies": gap}},
            {"outcome": "error", "invariants": {"deploy.applies": broke}},
            {"outcome": "error", "invariants": {}},
            {"outcome": "pass", "invariants": {"deploy.applies": {"verdict": "pass"}}}]
    assert [document._error_cause(r) for r in runs] == ["emulator gap", "kit", "kit", None]


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


# --- used vs granted ----------------------------------------------------------------------


def _run_with_usage() -> RunResult:
    """A run with the used-vs-granted its history gives (the gateway's records, IAM state)."""
    b = HistoryBuilder(seed=1)
    for process, action in (("worker-0", "sqs:ReceiveMessage"), ("worker-0#1", "sqs:DeleteMessage"),
                            ("producer", "sqs:SendMessage")):
        b.op(process, "authz", action=action, operation=action.split(":")[1],
             resource=ARN["queue"], decision="Allow", deciding=[], reason="")
    iam = healthy_iam()
    iam["roles"]["worker"]["policies"]["extra"] = allow("sqs:PurgeQueue", ARN["queue"])
    b.final = {"iam": iam}
    run = _run("none", {"iam.least_privilege": "pass"})
    run.used_vs_granted = used_vs_granted(b.build(), ["sqs"])
    return run


def _usage_doc(tmp_path: Path) -> dict:
    sc = scenario.load("order-pipeline")
    return document.build(sc, "sol", [_run_with_usage(), _run("db_outage", {})],
                          "kit eval order-pipeline")


def test_document_has_used_vs_granted_per_run(tmp_path: Path) -> None:
    doc = _usage_doc(tmp_path)
    worker = doc["runs"][0]["used_vs_granted"]["worker"]
    assert worker["needed_policy"]["Statement"] == [{
        "Effect": "Allow", "Action": ["sqs:DeleteMessage", "sqs:ReceiveMessage"],
        "Resource": "arn:aws:sqs:us-east-1:123456789012:orders"}]
    assert [(g["action"], g["resource"]) for g in worker["granted_unused"]] == [
        ("sqs:ChangeMessageVisibility", "queue"), ("sqs:PurgeQueue", "queue")]
    assert doc["runs"][1]["used_vs_granted"] is None  # the run did not get that far


def test_markdown_and_junit_show_used_vs_granted(tmp_path: Path) -> None:
    doc = _usage_doc(tmp_path)
    text = markdown.render(doc)
    assert "### Used vs granted" in text
    # One line per role over all the runs (kit/report/fold.py), not one per role per fault.
    assert ("- `worker`: granted 4 (action, resource) pairs, used 2 over 1 fault, never used "
            "2 (sqs:ChangeMessageVisibility on queue, sqs:PurgeQueue on queue)") in text
    path = junit.write(doc, tmp_path / "junit.xml")
    suite = next(iter(junitparser.JUnitXml.fromfile(str(path))))
    assert {p.name: p.value for p in suite.properties()}["used_vs_granted.producer"] == (
        "used 1 of 1 granted (action, resource) pairs; never used: 0")
    out = ET.parse(path).getroot().find("testsuite/system-out")
    assert out is not None and "needed policy of role worker" in (out.text or "")
    assert "### Used vs granted" not in markdown.render(_doc())
