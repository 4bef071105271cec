"""A new failure must reproduce (kit/report/confirm.py): the rule over the reruns' (base,
head) verdicts, the seeds rerun, the comparison and summary.md that show it, report merge
keeping it, and the exit code of `--fail-on new|flaky`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kit import cli, scenario
from kit.checks.result import CheckResult
from kit.cli import eval as cli_eval
from kit.evaluate.baseline import Base
from kit.report import compare, confirm, document, markdown, merge
from kit.run.result import RunResult

INV = "delivery.no_loss"


def _result(fault: str, seed: int, verdict: str) -> RunResult:
    found = {INV: CheckResult(id=INV, verdict=verdict, summary=f"{INV} {verdict} at {seed}",
                              evidence={"lost": ["o-1-0003"]}, params={}),
             "a": CheckResult(id="a", verdict="pass", summary="a pass", evidence={}, params={})}
    return RunResult("order-pipeline", "sol", fault, seed, verdict, found)


def _runs(fault: str, verdicts: dict[int, str]) -> list[dict]:
    return [_result(fault, seed, v).to_dict() for seed, v in verdicts.items()]


# --- the rule ---------------------------------------------------------------------------


def test_a_failure_reproduced_in_every_run_is_new() -> None:
    found = confirm.decide([(1, "pass", "fail"), (1, "pass", "fail"), (1001, "-", "fail")])
    assert found["status"] == compare.NEW
    assert (found["of"], found["head_failed"], found["base_failed"]) == (3, 3, 0)
    assert found["summary"] == "head failed 3 of 3, base failed 0 of 3"


def test_one_rerun_where_the_head_passed_is_flaky() -> None:
    found = confirm.decide([(1, "pass", "fail"), (1, "pass", "fail"), (1001, "pass", "pass")])
    assert found["status"] == compare.FLAKY
    assert found["summary"] == "head failed 2 of 3, base failed 0 of 3"


def test_one_rerun_where_the_base_failed_too_is_flaky() -> None:
    found = confirm.decide([(1, "pass", "fail"), (1, "fail", "fail"), (1001, "pass", "fail")])
    assert found["status"] == compare.FLAKY
    assert found["summary"] == "head failed 3 of 3, base failed 1 of 3"


def test_a_head_that_stopped_before_it_in_a_rerun_did_not_reproduce_it() -> None:
    assert confirm.decide([(1, "pass", "fail"), (1, "pass", "-")])["status"] == compare.FLAKY


def test_a_rerun_the_kit_could_not_judge_is_unknown_unless_another_contradicts() -> None:
    unjudged = confirm.decide([(1, "pass", "fail"), (1, "error", "fail"), (1001, "pass", "fail")])
    assert unjudged["status"] == compare.UNKNOWN  # never blamed on the PR, never cleared
    assert unjudged["summary"] == "head failed 3 of 3, base failed 0 of 3, 1 the kit could " \
        "not judge"
    both = confirm.decide([(1, "pass", "fail"), (1, "pass", "error"), (1001, "pass", "pass")])
    assert both["status"] == compare.FLAKY


def test_the_reruns_are_the_failing_seed_then_fresh_deterministic_seeds() -> None:
    assert confirm.seeds(7, 3) == [7, 1007, 2007]
    assert confirm.seeds(7, 0) == []


def test_decisions_pair_each_side_by_seed_from_the_first_pass_and_the_reruns() -> None:
    base = _runs("worker_crash", {1: "pass", 2: "pass"})
    head = _runs("worker_crash", {1: "pass", 2: "fail"})  # new at seed 2
    comparison = compare.classify(base, head)
    assert confirm.pending(comparison, head) == {"worker_crash": [2]}
    base_again = _runs("worker_crash", {2: "pass", 1002: "fail"})
    head_again = _runs("worker_crash", {2: "fail", 1002: "fail"})
    found = confirm.decisions(comparison, base, head, base_again, head_again, 2)
    assert list(found) == [("worker_crash", INV)]
    decided = found[("worker_crash", INV)]
    assert decided["runs"] == [{"seed": 2, "base": "pass", "head": "fail"},
                               {"seed": 2, "base": "pass", "head": "fail"},
                               {"seed": 1002, "base": "fail", "head": "fail"}]
    assert (decided["status"], decided["summary"]) == (
        compare.FLAKY, "head failed 3 of 3, base failed 1 of 3")
    missing = confirm.decisions(comparison, base, head, [], head_again, 2)  # no base rerun
    assert missing[("worker_crash", INV)]["status"] == compare.UNKNOWN


def test_the_reruns_start_at_the_seed_the_head_failed_at_not_one_it_erred_at() -> None:
    base = _runs("none", {1: "pass", 2: "pass"})
    head = _runs("none", {1: "error", 2: "fail"})
    comparison = compare.classify(base, head)
    [entry] = [e for e in comparison if e["invariant"] == INV]
    assert (entry["status"], entry["why"]["seed"]) == (compare.NEW, 1)  # fail beats error
    assert confirm.pending(comparison, head) == {"none": [2]}
    again = _runs("none", {2: "fail", 1002: "fail"})
    found = confirm.decisions(comparison, base, head, _runs("none", {2: "pass", 1002: "pass"}),
                              again, 2)
    assert found[("none", INV)]["status"] == compare.NEW


# --- the comparison, the comment, the terminal and merge -------------------------------------


def _doc(head_verdicts: dict[int, str], rerun: dict[int, tuple[str, str]], fail_on: str
         ) -> dict:
    """report.json as kit eval writes it: a first pass new at seed 1, its reruns' decision."""
    sc = scenario.load("order-pipeline")
    head = document.build(sc, "sol", [_result("worker_crash", s, v)
                                      for s, v in head_verdicts.items()], "kit eval")
    base = document.build(sc, "sol", [_result("worker_crash", s, "pass")
                                      for s in head_verdicts], "kit eval")
    comparison = compare.classify(base["runs"], head["runs"])
    decided = confirm.decisions(
        comparison, base["runs"], head["runs"],
        _runs("worker_crash", {s: b for s, (b, _) in rerun.items()}),
        _runs("worker_crash", {s: h for s, (_, h) in rerun.items()}), len(rerun))
    return compare.attach(head, base, fail_on, "origin/main", "origin/main", "f" * 40, decided)


FLAKY_RERUNS = {1: ("pass", "fail"), 1001: ("pass", "pass")}
NEW_RERUNS = {1: ("pass", "fail"), 1001: ("pass", "fail")}


def test_a_flaky_pair_has_its_own_section_with_the_counts_and_does_not_fail() -> None:
    doc = _doc({1: "fail"}, FLAKY_RERUNS, "new")
    [entry] = [e for e in doc["comparison"] if e["invariant"] == INV]
    assert entry["status"] == compare.FLAKY and entry["confirm"]["of"] == 3
    assert doc["verdict"] == "pass"  # flaky alone never fails --fail-on new
    text = markdown.render(doc)
    assert "### Flaky: did not reproduce in every rerun" in text
    assert "### New failures" not in text
    assert "- **worker_crash** (seed 1) `delivery.no_loss`: delivery.no_loss fail at 1; " \
           "reruns: head failed 2 of 3, base failed 0 of 3 (the first run, then seeds 1, " \
           "1001)\n" in text
    assert "1 flaky" in text and "Fails only on new failures, not on flaky ones" in text
    assert "| `delivery.no_loss` | **FAIL** (flaky) |" in text
    assert compare.lines(doc["comparison"]) == [
        "flaky: worker_crash delivery.no_loss (base pass, head fail; head failed 2 of 3, "
        "base failed 0 of 3): delivery.no_loss fail at 1"]


def test_a_reproduced_failure_says_how_often_and_fails() -> None:
    doc = _doc({1: "fail"}, NEW_RERUNS, "new")
    assert doc["verdict"] == "fail"
    text = markdown.render(doc)
    assert text.index("### New failures") < text.index("| invariant |")
    assert "reruns: head failed 3 of 3, base failed 0 of 3" in text
    assert "### Flaky" not in text


def test_without_reruns_a_new_failure_stays_new() -> None:
    doc = _doc({1: "fail"}, {}, "new")  # --confirm 0
    [entry] = [e for e in doc["comparison"] if e["invariant"] == INV]
    assert entry["status"] == compare.NEW and entry["confirm"]["of"] == 1
    plain = compare.attach(doc, doc["baseline"] | {"runs": doc["baseline"]["runs"]}, "new")
    assert "confirm" not in next(e for e in plain["comparison"] if e["invariant"] == INV)


def test_a_merge_keeps_each_reports_decision(tmp_path: Path) -> None:
    flaky = _doc({1: "fail"}, FLAKY_RERUNS, "new")
    document.write(flaky, tmp_path / "a" / "report.json")
    merged = merge.merge([tmp_path / "a" / "report.json"])
    [entry] = [e for e in merged["comparison"] if e["invariant"] == INV]
    assert entry["status"] == compare.FLAKY and merged["verdict"] == "pass"


# --- the exit code --------------------------------------------------------------------------


@pytest.mark.parametrize(("reruns", "fail_on", "code"), [
    (FLAKY_RERUNS, "new", cli.EXIT_OK), (FLAKY_RERUNS, "flaky", cli.EXIT_FAIL),
    (NEW_RERUNS, "new", cli.EXIT_FAIL), (NEW_RERUNS, "flaky", cli.EXIT_FAIL),
    ({}, "new", cli.EXIT_FAIL), (FLAKY_RERUNS, "any", cli.EXIT_FAIL),
])
def test_the_exit_code_fails_on_flaky_only_when_asked(tmp_path: Path, reruns: dict,
                                                      fail_on: str, code: int) -> None:
    sc = scenario.load("order-pipeline")
    head = [_result("worker_crash", 1, "fail")]
    base = [_result("worker_crash", 1, "pass")]
    comparison = compare.classify([r.to_dict() for r in base], [r.to_dict() for r in head])
    decided = confirm.decisions(
        comparison, [r.to_dict() for r in base], [r.to_dict() for r in head],
        _runs("worker_crash", {s: b for s, (b, _) in reruns.items()}),
        _runs("worker_crash", {s: h for s, (_, h) in reruns.items()}), len(reruns))
    found = cli_eval.report_runs(sc, tmp_path / "sol", head, "kit eval", tmp_path / "out", [],
                        base=(Base(tmp_path / "base", "main", "f" * 40, "."), base),
                        fail_on=fail_on, decisions=decided)
    assert found == code
    written = json.loads((tmp_path / "out" / "report.json").read_text())
    assert written["fail_on"] == fail_on
    assert (tmp_path / "out" / "summary.md").read_text().count("### Flaky") == \
        (reruns is FLAKY_RERUNS)


def test_confirm_takes_a_count_of_reruns_and_is_in_the_reproduce_command() -> None:
    parser = cli.build_parser()
    assert parser.parse_args(["eval", "order-pipeline"]).confirm == confirm.DEFAULT == 2
    args = parser.parse_args(["eval", "order-pipeline", "--baseline", "main", "--confirm", "0",
                              "--fail-on", "flaky"])
    assert (args.confirm, args.fail_on) == (0, "flaky")
    assert "--baseline main --fail-on flaky --confirm 0" in cli_eval.eval_command(
        "order-pipeline", args, "sol", [])
    with pytest.raises(SystemExit):
        parser.parse_args(["eval", "order-pipeline", "--confirm", "-1"])
