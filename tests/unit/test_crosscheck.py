"""Cross-check: a verdict the emulators disagree on is a fidelity finding, set aside from
the graded run; the reward neither loses nor gains by it."""

from __future__ import annotations

from kit import scenario
from kit.checks.result import CheckResult
from kit.evaluate import crosscheck
from kit.report import document, markdown
from kit.run.result import RunResult


def _run(fault: str, verdicts: dict[str, str], error: str | None = None) -> RunResult:
    results = {i: CheckResult(id=i, verdict=v, summary=f"{i} {v}", evidence={"v": v})
               for i, v in verdicts.items()}
    outcome = "error" if error else ("fail" if "fail" in verdicts.values() else "pass")
    return RunResult("order-pipeline", "sol", fault, 1, outcome, results, error)


def test_only_verdicts_judged_on_both_sides_and_different_are_findings() -> None:
    graded = [_run("none", {"a": "pass", "b": "fail", "c": "pass", "d": "pass"}),
              _run("sqs_outage", {"a": "pass"})]
    witness = [_run("none", {"a": "pass", "b": "pass", "c": "error", "e": "fail"})]
    found = crosscheck.compare(graded, witness, "moto", "localstack")
    assert [(f.fault, f.invariant, f.verdicts) for f in found] == [
        ("none", "b", {"moto": "fail", "localstack": "pass"})]
    assert found[0].evidence == {"moto": {"summary": "b fail", "evidence": {"v": "fail"}},
                                 "localstack": {"summary": "b pass", "evidence": {"v": "pass"}}}


def test_a_finding_leaves_the_reward_as_if_the_invariant_were_not_judged() -> None:
    sc = scenario.load("order-pipeline")
    everything = dict.fromkeys(sc.invariants, "pass")
    graded = [_run("none", everything | {"delivery.no_loss": "fail"})]
    witness = [_run("none", everything)]
    findings = crosscheck.compare(graded, witness, "moto", "localstack")
    crosscheck.set_aside(graded, findings)
    assert graded[0].outcome == "pass"
    assert "delivery.no_loss" not in graded[0].results
    assert graded[0].fidelity_findings[0]["invariant"] == "delivery.no_loss"
    doc = document.build(sc, "sol", graded, "kit eval", findings=findings)
    assert doc["reward"] == 1.0 and not doc["reward_detail"]["capped"]
    assert doc["fidelity_findings"]["count"] == 1
    text = markdown.render(doc)
    assert "Fidelity findings" in text and "moto: fail" in text and "localstack: pass" in text


def test_a_run_the_kit_could_not_judge_stays_an_error() -> None:
    graded = [_run("none", {"a": "fail"}, error="emulator died")]
    findings = crosscheck.compare(graded, [_run("none", {"a": "pass"})], "moto", "localstack")
    crosscheck.set_aside(graded, findings)
    assert graded[0].outcome == "error"
