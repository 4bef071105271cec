"""The reviewed equivalents file, a mutant's verdict from its runs, the static stage's
kills, the score and the report."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kit import scenario
from kit.checks.result import CheckResult
from kit.errors import InputError
from kit.evaluate.matrix import Row
from kit.evaluate.matrix import dir_name as run_dir_name
from kit.mutate import equivalents, reuse
from kit.mutate.analysis import Analysis, analyse
from kit.mutate.mutant import Mutant, unified
from kit.mutate.reach import drawn
from kit.mutate.report import markdown, write
from kit.mutate.run import Judged, _verdict, escalation, faults_for, judge_static, planned
from kit.run.result import RunResult

MUTANT = Mutant("setting.drop:sqs.tf:30", "setting.drop", "sqs.tf", 30, "drop redrive_policy",
                "")


def _file(tmp_path: Path, text: str) -> Path:
    path = tmp_path / equivalents.FILE
    path.write_text(text)
    return path


def test_listed_equivalents_load_with_their_reasons(tmp_path: Path) -> None:
    path = _file(tmp_path, "- id: a:x.tf:1\n  reason: the default is the same value\n")
    assert equivalents.load(path, {"a:x.tf:1"}) == {"a:x.tf:1": "the default is the same value"}
    assert equivalents.load(tmp_path / "absent.yaml", {"a"}) == {}


@pytest.mark.parametrize(("text", "says"), [
    ("- id: gone:x.tf:9\n  reason: r\n", "names no mutant of the golden"),
    ("- id: a:x.tf:1\n", "fields id and reason"),
    ("- id: a:x.tf:1\n  reason: ''\n", "fields id and reason"),
    ("- id: a:x.tf:1\n  reason: r\n- id: a:x.tf:1\n  reason: s\n", "listed twice"),
    ("id: a\n", "a list of {id, reason}"),
    ("- [\n", "not valid YAML"),
])
def test_a_bad_entry_is_an_error_naming_the_file(tmp_path: Path, text: str, says: str) -> None:
    path = _file(tmp_path, text)
    with pytest.raises(InputError, match=says) as caught:
        equivalents.load(path, {"a:x.tf:1"})
    assert str(path) in str(caught.value)


def _run(outcome: str, failed: tuple[str, ...] = ()) -> RunResult:
    results = {i: CheckResult(id=i, verdict="fail", summary="") for i in failed}
    results["deploy.applies"] = CheckResult(id="deploy.applies", verdict="pass", summary="")
    return RunResult("order-pipeline", "s", "none", 1, outcome, results=results,
                     error="boom" if outcome == "error" else None)


@pytest.mark.parametrize(("outcomes", "status", "killed_by"), [
    ([("fail", ("delivery.poison_to_dlq",))], "killed", ("delivery.poison_to_dlq",)),
    ([("pass", ())], "survived", ()),
    ([("error", ())], "error", ()),
    # An errored run's failures are not a kill: the kit broke, not the mutant.
    ([("error", ("delivery.no_loss",)), ("pass", ())], "error", ()),
])
def test_a_mutant_s_verdict_from_its_runs(outcomes: list, status: str,
                                          killed_by: tuple[str, ...]) -> None:
    sc = scenario.load("order-pipeline")
    rows = []
    for outcome, failed in outcomes:
        row = Row(MUTANT.id, "none", ())
        row.runs.append(_run(outcome, failed))
        rows.append(row)
    judged = Judged(MUTANT)
    _verdict(sc, judged, rows)
    assert (judged.status, judged.killed_by) == (status, killed_by)
    assert judged.reward == (1.0 if status == "survived" else judged.reward)


def test_the_sampled_fault_is_stable_and_a_fault_of_the_scenario() -> None:
    sc = scenario.load("order-pipeline")
    assert drawn(sc, MUTANT, 1, None) == drawn(sc, MUTANT, 1, None) in sc.faults
    assert len({drawn(sc, MUTANT, s, None) for s in range(30)}) > 1


def test_a_survivor_meets_every_other_fault_in_a_stable_order_within_its_budget() -> None:
    sc = scenario.load("order-pipeline")
    first = faults_for(sc, MUTANT, 1, False)
    rest = escalation(sc, MUTANT, 1, first)
    assert sorted(first + rest) == sorted(sc.faults) and rest == escalation(sc, MUTANT, 1, first)
    assert len({escalation(sc, MUTANT, s, first) for s in range(30)}) > 1
    assert planned(sc, MUTANT, 1, False) == first + rest
    assert planned(sc, MUTANT, 1, False, escalate=2) == first + rest[:2]
    assert planned(sc, MUTANT, 1, False, escalate=0) == first
    assert planned(sc, MUTANT, 1, True) == tuple(sorted(sc.faults))  # --all: nothing left


def test_a_worker_code_survivor_meets_the_faults_that_reach_its_code_first() -> None:
    sc = scenario.load("order-pipeline")
    code = Mutant("handler.remove:worker.py:3", "handler.remove", "worker.py", 3, "",
                  "@@ -3,1 +3,1 @@\n-    except Exception:\n+    except Exception:\n")
    reached = {"db_outage": {"worker.py:3"}, "worker_crash": {"worker.py:3"},
               "none": {"worker.py:9"}}
    order = escalation(sc, code, 1, ("db_outage",), reached)
    assert order[0] == "worker_crash" and "db_outage" not in order
    assert set(order) == set(sc.faults) - {"db_outage"}


def test_chosen_faults_replace_the_sampled_one_and_an_unknown_one_is_named(
        tmp_path: Path) -> None:
    sc = scenario.load("order-pipeline")
    assert faults_for(sc, MUTANT, 1, False, ("db_outage",)) == ("db_outage",)
    assert faults_for(sc, MUTANT, 1, True, ("db_outage",)) == tuple(sorted(sc.faults))
    with pytest.raises(InputError, match="--fault db_outrage: no such fault in order-pipeline"):
        analyse(sc, sc.golden, tmp_path, chosen=("db_outrage",))


def test_the_static_stage_kills_a_mutant_the_policy_lint_flags(tmp_path: Path) -> None:
    sc = scenario.load("order-pipeline")
    solution = tmp_path / "solution"
    solution.mkdir()
    old = ('resource "aws_iam_role_policy" "p" {\n  role = "r"\n  policy = jsonencode({\n'
           '    Statement = [{\n      Effect   = "Allow"\n      Action   = "sqs:*"\n'
           '      Resource = "*"\n    }]\n  })\n}\n')
    (solution / "iam.tf").write_text(old)

    def mutant(before: str, after: str) -> Mutant:
        return Mutant(after, "x", "iam.tf", 6, "", unified("iam.tf", old, old.replace(
            before, after)))

    # The solution's own finding (sqs:*) is its baseline: only a new finding kills.
    same = Judged(mutant('"sqs:*"', '"sqs:SendMessage"'))
    judge_static(sc, solution, [same])
    assert same.status == "survived" and not same.stage
    (solution / "iam.tf").write_text(old := old.replace('"sqs:*"', '"sqs:SendMessage"'))
    grown = Judged(mutant('"sqs:SendMessage"', '"sqs:*"'))
    judge_static(sc, solution, [grown])
    assert (grown.status, grown.stage, grown.killed_by) == ("killed", "static",
                                                            ("iam.least_privilege",))


def test_score_and_report(tmp_path: Path) -> None:
    judged = [Judged(MUTANT, status="killed", stage="run", killed_by=("delivery.no_loss",)),
              Judged(Mutant("b:x.tf:2", "b", "x.tf", 2, "drop b", ""), status="survived"),
              Judged(Mutant("c:x.tf:3", "c", "x.tf", 3, "drop c", ""), status="equivalent",
                     reason="the default")]
    analysis = Analysis("order-pipeline", "golden", 1, False, judged)
    assert analysis.score == 0.5  # 1 killed of 3 - 1 equivalent
    text = markdown(analysis)
    assert "mutation score 0.50" in text and "| delivery.no_loss | 1 |" in text
    assert "from seed 1, a survivor then under every other fault" in text
    assert "- `b:x.tf:2`: drop b" in text and "- `c:x.tf:3`: drop c: the default" in text
    data, _ = write(analysis, tmp_path)
    assert json.loads(data.read_text())["counts"] == {"killed": 1, "survived": 1,
                                                      "equivalent": 1, "error": 0}


def test_an_earlier_verdict_is_reused_only_for_an_unchanged_mutant(tmp_path: Path) -> None:
    earlier = Judged(MUTANT, status="killed", stage="run", killed_by=("delivery.no_loss",),
                     faults=("none",), runs=["r"])
    path = tmp_path / "mutate.json"
    path.write_text(json.dumps({"mutants": [earlier.to_dict()]}))
    same, moved = Judged(MUTANT), Judged(Mutant(MUTANT.id, "", "", 30, "", "other patch"))
    other_fault = Judged(MUTANT)
    assert reuse.apply([same, moved], reuse.load(path), lambda j: ("none", "db_outage"),
                       lambda j: ("none",)) == 1
    assert (same.status, same.killed_by, same.runs) == ("killed", ("delivery.no_loss",), ["r"])
    assert (moved.status, moved.stage) == ("survived", "")
    assert reuse.apply([other_fault], reuse.load(path), lambda j: ("db_outage",),
                       lambda j: ("db_outage",)) == 0
    # A survivor is reused only when it survived every fault this analysis would try.
    survivor = Judged(MUTANT, status="survived", stage="run", faults=("none", "db_outage"),
                      reward=1.0)
    path.write_text(json.dumps({"mutants": [survivor.to_dict()]}))
    fewer, more = Judged(MUTANT), Judged(MUTANT)
    assert reuse.apply([fewer], reuse.load(path), lambda j: ("none", "db_outage"),
                       lambda j: ("none",)) == 1
    assert (fewer.status, fewer.faults) == ("survived", ("none", "db_outage"))
    assert reuse.apply([more], reuse.load(path), lambda j: ("none", "db_outage", "iam_revoke"),
                       lambda j: ("none",)) == 0
    (tmp_path / "bad.json").write_text("{}")
    with pytest.raises(InputError, match="bad.json: not a mutate.json"):
        reuse.load(tmp_path / "bad.json")


def test_an_interrupted_run_s_directory_is_reused_from_its_result_files(tmp_path: Path) -> None:
    run = tmp_path / run_dir_name(MUTANT.id) / "none-seed1"
    run.mkdir(parents=True)
    run.joinpath("result.json").write_text(json.dumps({
        "fault": "none", "outcome": "fail", "run_dir": str(run),
        "invariants": {"delivery.poison_to_dlq": {"verdict": "fail"},
                       "deploy.applies": {"verdict": "pass"}}}))
    earlier = reuse.load(tmp_path, [MUTANT.id, "other:x.tf:1"])
    assert list(earlier) == [MUTANT.id]
    judged = Judged(MUTANT)
    assert reuse.apply([judged], earlier, lambda j: ("none",), lambda j: ("none",)) == 1
    assert (judged.status, judged.killed_by) == ("killed", ("delivery.poison_to_dlq",))
