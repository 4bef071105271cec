"""Base versus head (kit/report/compare.py), the evidence cut (kit/report/cut.py), the
used-vs-granted folding (kit/report/fold.py) and the summary a reviewer reads."""

from __future__ import annotations

import json

import pytest

from kit import scenario
from kit.checks.result import CheckResult
from kit.report import compare, cut, document, fold, markdown
from kit.run.result import RunResult


def _run(fault: str, verdicts: dict[str, str], seed: int = 1, error: str | None = None,
         outcome: str | None = None) -> dict:
    results = {i: CheckResult(id=i, verdict=v, summary=f"{i} under {fault}: {v}",
                              evidence={"lost": ["n-1-0011"], "of": 30}, params={})
               for i, v in verdicts.items()}
    if outcome is None:
        outcome = "error" if error else ("fail" if "fail" in verdicts.values() else "pass")
    return RunResult("order-pipeline", "sol", fault, seed, outcome, results, error).to_dict()


# --- classification ---------------------------------------------------------------------


@pytest.mark.parametrize(("base", "head", "kind"), [
    ("pass", "fail", compare.NEW), ("fail", "pass", compare.FIXED),
    ("fail", "fail", compare.STILL), ("pass", "pass", compare.PASS),
    ("error", "fail", compare.UNKNOWN), ("fail", "error", compare.UNKNOWN),
    ("error", "pass", compare.UNKNOWN), ("pass", "error", compare.UNKNOWN),
    ("pass", "-", compare.NOT_REACHED), ("-", "fail", compare.NEW), ("-", "pass", compare.PASS),
])
def test_each_pair_of_verdicts_has_its_class(base: str, head: str, kind: str) -> None:
    assert compare.status(base, head) == kind


def test_classify_puts_new_failures_first_with_the_fault_and_the_summary() -> None:
    base = [_run("none", {"a": "pass", "b": "fail", "c": "fail"}),
            _run("db_outage", {"a": "pass", "b": "fail", "c": "pass"})]
    head = [_run("none", {"a": "pass", "b": "fail", "c": "pass"}),
            _run("db_outage", {"a": "fail", "b": "fail", "c": "pass"})]
    found = {(e["fault"], e["invariant"]): e["status"] for e in compare.classify(base, head)}
    assert found == {("none", "a"): "pass", ("none", "b"): "still failing",
                     ("none", "c"): "fixed", ("db_outage", "a"): "new failure",
                     ("db_outage", "b"): "still failing", ("db_outage", "c"): "pass"}
    first = compare.classify(base, head)[0]
    assert (first["status"], first["fault"], first["why"]) == (
        "new failure", "db_outage", {"seed": 1, "verdict": "fail",
                                     "summary": "a under db_outage: fail"})
    fixed = next(e for e in compare.classify(base, head) if e["status"] == "fixed")
    assert fixed["why"]["summary"] == "c under none: fail"  # the base's failure it fixed


def test_an_error_on_either_side_is_unknown_never_new_or_fixed() -> None:
    base = [_run("none", {}, error="moto died")]  # the kit could not judge the base
    head = [_run("none", {"a": "fail"})]
    [entry] = compare.classify(base, head)
    assert (entry["base"], entry["head"], entry["status"]) == ("error", "fail", "unknown")
    assert "could not judge it on the base" in entry["why"]["summary"]
    assert compare.verdict([entry], "fail", "new") == "error"
    [back] = compare.classify(head, base)
    assert back["status"] == "unknown" and "on the head" in back["why"]["summary"]


def test_seeds_fold_into_one_verdict_per_fault() -> None:
    head = [_run("none", {"a": "pass"}, seed=1), _run("none", {"a": "fail"}, seed=2)]
    base = [_run("none", {"a": "pass"}, seed=1), _run("none", {"a": "pass"}, seed=2)]
    [entry] = compare.classify(base, head)
    assert entry["status"] == "new failure" and entry["why"]["seed"] == 2


def test_a_head_stopped_by_its_gate_has_not_reached_the_rest() -> None:
    base = [_run("none", {"deploy.applies": "pass", "a": "pass"})]
    head = [_run("none", {"deploy.applies": "fail"})]
    found = {e["invariant"]: e["status"] for e in compare.classify(base, head)}
    assert found == {"deploy.applies": "new failure", "a": "not reached"}


@pytest.mark.parametrize(("statuses", "fail_on", "outcome", "expected"), [
    (["still failing", "pass"], "new", "fail", "pass"),
    (["new failure", "still failing"], "new", "fail", "fail"),
    (["fixed"], "new", "pass", "pass"),
    (["still failing"], "any", "fail", "fail"),
    (["unknown", "pass"], "new", "error", "error"),
    (["not reached", "new failure"], "new", "fail", "fail"),
])
def test_the_verdict_fails_on_new_failures_unless_strict(statuses: list[str], fail_on: str,
                                                         outcome: str, expected: str) -> None:
    comparison = [{"status": s} for s in statuses]
    assert compare.verdict(comparison, outcome, fail_on) == expected


# --- evidence cut -----------------------------------------------------------------------


def test_evidence_is_cut_at_a_member_and_says_how_many_more() -> None:
    evidence = {"kind": "records", "lost": [f"n-1-{i:04d}" for i in range(200)],
                "first": {"kind": "receive", "at": 1.5}, "count": 200, "extra": "x" * 50}
    text = cut.render(evidence, 300)
    parsed = json.loads(text)  # valid JSON: never cut mid-token
    assert len(text) <= 300
    assert parsed["kind"] == "records"
    assert parsed["lost"][-1].startswith("... ") and parsed["lost"][-1].endswith("more items")
    shown = len(parsed["lost"]) - 1
    assert parsed["lost"][-1] == f"... {200 - shown} more items"
    assert parsed["..."] == "3 more members"  # first, count and extra did not fit


def test_small_evidence_is_whole_and_long_strings_say_what_was_left() -> None:
    assert json.loads(cut.render({"a": 1, "b": [1, 2]}, 600)) == {"a": 1, "b": [1, 2]}
    text = cut.render({"error": "word " * 100}, 600)
    said = json.loads(text)["error"]
    assert said.endswith("more characters)") and len(said) < 300


# --- used vs granted ----------------------------------------------------------------------


def _usage(unused: list[str], used: list[str], granted: int = 4) -> dict:
    return {"used": [[a, "q"] for a in used], "granted": granted,
            "granted_used": granted - len(unused),
            "granted_unused": [{"action": a, "resource": "q"} for a in unused],
            "granted_exempt": []}


def test_used_vs_granted_is_one_line_per_role_over_all_faults() -> None:
    runs = [_run("none", {}) | {"used_vs_granted": {
                "worker": _usage(["sqs:PurgeQueue", "sqs:ChangeMessageVisibility"],
                                 ["sqs:ReceiveMessage", "sqs:DeleteMessage"]),
                "producer": _usage([], ["sqs:SendMessage"], granted=1)}},
            _run("worker_crash", {}) | {"used_vs_granted": {
                "worker": _usage(["sqs:PurgeQueue"], ["sqs:ReceiveMessage",
                                                      "sqs:ChangeMessageVisibility"])}},
            _run("db_outage", {}) | {"used_vs_granted": None}]
    folded = fold.fold(runs)
    assert folded["worker"]["never_used"] == {"sqs:PurgeQueue on q"}  # unused in every run
    assert fold.lines(runs) == [
        "- `worker`: granted 4 (action, resource) pairs, used 3 over 2 faults, never used 1 "
        "(sqs:PurgeQueue on q)",
        "- `producer`: granted 1 (action, resource) pairs, used 1 over 1 fault, never used 0"]


# --- the summary --------------------------------------------------------------------------


def _compared(head_b: str, trust: str = "untrusted") -> dict:
    sc = scenario.load("order-pipeline")
    base = [_run("db_outage", {"delivery.no_loss": "fail", "a": "pass", "b": "pass"})]
    head = [_run("db_outage", {"delivery.no_loss": "fail", "a": "pass", "b": head_b})]
    build = [RunResult("order-pipeline", "sol", r["fault"], r["seed"], r["outcome"],
                       {i: CheckResult.model_validate(v) for i, v in r["invariants"].items()})
             for r in head]
    src = {"top": "/ci/work/repo", "path": "infra", "commit": "0123456789abcdef" * 2 + "01234567",
           "dirty": False}
    doc = document.build(sc, "/ci/work/repo/infra", build, "kit eval /ci/work/repo/infra",
                         source=src, reproduce="git checkout 0123456789ab && kit eval "
                         "order-pipeline --solution infra --seed 1")
    doc["trust"] = trust
    base_doc = doc | {"runs": base, "outcome": "fail"}
    return compare.attach(doc, base_doc, "new", "origin/main", "origin/main", "f" * 40)


def test_the_summary_leads_with_the_new_failure_and_its_fault() -> None:
    text = markdown.render(_compared("fail"))
    assert text.startswith("## kit: `order-pipeline`: **FAIL**")
    new = text.index("### New failures")
    assert new < text.index("### Still failing") < text.index("| invariant |")
    assert "- **db_outage** (seed 1) `b`: b under db_outage: fail" in text
    assert "origin/main` (commit `ffffffffffff`): 1 new failure, 1 still failing" in text
    assert "| `b` | **FAIL** (new failure) |" in text
    assert "/ci/work" not in text  # paths relative to the repository
    assert "Solution `infra` at commit `0123456789ab`" in text
    assert "git checkout 0123456789ab && kit eval order-pipeline --solution infra" in text
    assert "reward" in text  # an agent task shows its reward


def test_a_clean_pr_lists_what_still_fails_and_a_team_sees_no_reward() -> None:
    doc = _compared("pass", trust="team")
    assert doc["verdict"] == "pass" and doc["outcome"] == "fail"
    text = markdown.render(doc)
    assert text.startswith("## kit: `order-pipeline`: pass")
    assert "### New failures" not in text and "### Still failing" in text
    assert "- **db_outage** (seed 1) `delivery.no_loss`" in text
    assert "reward" not in text
