"""The reward's stated properties (kit/reward.py), over synthetic runs and histories."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from kit import scenario
from kit.checks import CheckResult, run_checks, worst
from kit.history import Effect, FinalState, make_history
from kit.report import document
from kit.reward import RewardSpec, reward, run_score
from kit.run.result import RunResult

SC = scenario.load("order-pipeline")
IDS = list(SC.invariants)
FAULTS = list(SC.faults)
SPEC = SC.reward
SEEDS = range(40)


def _runs(rng: random.Random, *, fail: float, error: float = 0.0) -> list[dict]:
    """Random runs: every fault, 1-3 seeds each, each verdict failing with chance `fail`."""
    out = []
    for fault in FAULTS:
        for seed in range(rng.randint(1, 3)):
            if rng.random() < error:
                out.append({"fault": fault, "seed": seed, "outcome": "error", "verdicts": {}})
                continue
            verdicts = {i: "fail" if rng.random() < fail else "pass" for i in IDS}
            outcome = "fail" if "fail" in verdicts.values() else "pass"
            out.append({"fault": fault, "seed": seed, "outcome": outcome, "verdicts": verdicts})
    return out


def test_all_passing_scores_one() -> None:
    runs = _runs(random.Random(0), fail=0.0)
    assert reward(SPEC, runs)["reward"] == 1.0


@pytest.mark.parametrize("seed", SEEDS)
def test_a_failed_major_invariant_anywhere_caps_the_reward(seed: int) -> None:
    rng = random.Random(seed)
    runs = _runs(rng, fail=0.0)
    victim = rng.choice(runs)
    major = [i for i in IDS if SPEC.severity(i) == "major"]
    victim["verdicts"][rng.choice(major)] = "fail"
    victim["outcome"] = "fail"
    got = reward(SPEC, runs)
    assert got["capped"] and got["reward"] <= SPEC.ceiling
    # However many other runs pass: the rest are all perfect here.
    assert got["base"] > 0.9


@pytest.mark.parametrize("seed", SEEDS)
def test_every_fault_weighs_the_same_whatever_its_seeds(seed: int) -> None:
    rng = random.Random(seed)
    runs = _runs(rng, fail=0.2)
    # Repeating every run of one fault (more seeds, same verdicts) changes nothing.
    fault = rng.choice(FAULTS)
    extra = [r | {"seed": r["seed"] + 100} for r in runs if r["fault"] == fault]
    assert reward(SPEC, runs + extra)["reward"] == reward(SPEC, runs)["reward"]


def test_every_fault_weighs_the_same_whatever_its_invariants() -> None:
    # One fault judged on 2 invariants, another on 12: each is half of the base.
    small = {"fault": "a", "seed": 1, "outcome": "pass",
             "verdicts": {"recovery.within_rto": "pass", "delivery.no_loss": "pass"}}
    big = {"fault": "b", "seed": 1, "outcome": "fail",
           "verdicts": {i: "pass" for i in IDS} | {"recovery.within_rto": "fail"}}
    spec = RewardSpec(severities={"recovery.within_rto": "minor"})
    got = reward(spec, [small, big])
    assert got["by_fault"] == {"a": 1.0, "b": round((len(IDS) - 1) / len(IDS), 4)}
    assert got["reward"] == round((1.0 + (len(IDS) - 1) / len(IDS)) / 2, 4)


@pytest.mark.parametrize("gate", ["deploy.applies", "deploy.allowed_constructs",
                                  "workload.workers_start"])
def test_a_solution_that_fails_a_gate_everywhere_gets_zero(gate: str) -> None:
    # A gate failure ends a run: only the gate invariants were judged.
    runs = [{"fault": f, "seed": 1, "outcome": "fail",
             "verdicts": {"deploy.allowed_constructs": "pass", gate: "fail"}} for f in FAULTS]
    assert reward(SPEC, runs)["reward"] == 0.0


@pytest.mark.parametrize("seed", SEEDS)
def test_runs_the_kit_could_not_judge_are_excluded_and_counted(seed: int) -> None:
    rng = random.Random(seed)
    runs = _runs(rng, fail=0.1)
    errors = [{"fault": rng.choice(FAULTS), "seed": 99 + k, "outcome": "error",
               "verdicts": {}} for k in range(rng.randint(1, 4))]
    with_errors = reward(SPEC, runs + errors)
    assert with_errors["reward"] == reward(SPEC, runs)["reward"]
    assert len(with_errors["excluded_runs"]) == len(errors)


def _perfect() -> list[dict]:
    return [{"fault": f, "seed": 1, "outcome": "pass", "verdicts": dict.fromkeys(IDS, "pass")}
            for f in FAULTS]


def _crashed_beside(failed: str) -> dict:
    """A run where `failed` failed and another invariant's checker crashed, its outcome
    composed as the run composes it (kit/run/pipeline.py: `worst` of the verdicts)."""
    crashed = next(i for i in IDS if i != failed)
    verdicts = dict.fromkeys(IDS, "pass") | {failed: "fail", crashed: "error"}
    return {"fault": FAULTS[0], "seed": 2, "outcome": worst(verdicts.values()),
            "verdicts": verdicts}


def test_a_crashed_checker_cannot_hide_a_failed_major_invariant() -> None:
    # The old rule ranked error above fail and dropped error runs: this run was left out
    # and the reward stayed 1.0.
    run = _crashed_beside("delivery.no_loss")
    assert run["outcome"] == "fail"
    got = reward(SPEC, _perfect() + [run])
    assert got["capped"] and got["reward"] <= SPEC.ceiling
    assert got["excluded_runs"] == [] and got["judged_runs"] == len(FAULTS) + 1
    # The error is still counted, and neither rewards nor punishes: out of the run's score.
    crashed = next(i for i, v in run["verdicts"].items() if v == "error")
    assert got["unjudged"] == [{"fault": FAULTS[0], "seed": 2, "invariant": crashed}]
    assert run_score(SPEC, run["verdicts"]) == (len(IDS) - 2) / (len(IDS) - 1)


def test_a_crashed_checker_cannot_hide_a_failed_gate() -> None:
    run = _crashed_beside("workload.fault_injected")
    assert run_score(SPEC, run["verdicts"]) == 0.0
    assert reward(SPEC, _perfect() + [run])["reward"] < 1.0


def test_a_run_with_only_errors_beside_passes_is_still_excluded() -> None:
    verdicts = dict.fromkeys(IDS, "pass") | {IDS[0]: "error"}
    run = {"fault": FAULTS[0], "seed": 2, "outcome": worst(verdicts.values()),
           "verdicts": verdicts}
    got = reward(SPEC, _perfect() + [run])
    assert run["outcome"] == "error" and got["reward"] == 1.0
    assert len(got["excluded_runs"]) == 1 and got["unjudged"] == []


def test_a_report_scores_a_failed_run_beside_a_crashed_checker() -> None:
    failed, crashed = "delivery.no_loss", "iam.least_privilege"
    results = {i: CheckResult(id=i, verdict="pass", summary="") for i in IDS} | {
        failed: CheckResult(id=failed, verdict="fail", summary="lost 3"),
        crashed: CheckResult(id=crashed, verdict="error", summary="checker crashed")}
    run = RunResult("order-pipeline", "sol", FAULTS[0], 1, worst(results.values()), results)
    doc = document.build(SC, "sol", [run], "kit eval")
    assert doc["outcome"] == "fail" and doc["runs"][0]["score"] is not None
    assert doc["reward"] <= SPEC.ceiling
    assert doc["runs"][0]["invariants"][crashed]["verdict"] == "error"  # still reported
    assert doc["reward_detail"]["unjudged"][0]["invariant"] == crashed


def test_no_judged_run_means_no_reward() -> None:
    runs = [{"fault": f, "seed": 1, "outcome": "error", "verdicts": {}} for f in FAULTS]
    got = reward(SPEC, runs)
    assert got["reward"] is None and len(got["excluded_runs"]) == len(FAULTS)


@pytest.mark.parametrize("seed", SEEDS)
def test_reward_is_in_range_and_more_failures_never_score_higher(seed: int) -> None:
    rng = random.Random(seed)
    runs = _runs(rng, fail=0.3, error=0.1)
    got = reward(SPEC, runs)["reward"]
    assert got is None or 0.0 <= got <= 1.0
    judged = [r for r in runs if r["outcome"] != "error"]
    if not judged:
        return
    worse = [dict(r, verdicts=dict(r["verdicts"])) for r in runs]
    target = rng.choice([r for r in worse if r["outcome"] != "error"])
    target["verdicts"][rng.choice(IDS)] = "fail"
    assert reward(SPEC, worse)["reward"] <= got


def test_minor_invariants_lower_the_score_without_the_ceiling() -> None:
    spec = RewardSpec(severities={"recovery.within_rto": "minor"})
    runs = [{"fault": f, "seed": 1, "outcome": "pass", "verdicts": dict.fromkeys(IDS, "pass")}
            for f in FAULTS]
    runs[0]["verdicts"]["recovery.within_rto"] = "fail"
    got = reward(spec, runs)
    assert not got["capped"] and SPEC.ceiling < got["reward"] < 1.0


def _sent(oid: str, message_id: str, customer: str = "c-1", amount: int = 100) -> dict:
    fields = {"order_id": oid, "customer_id": customer, "amount_cents": amount}
    return {"kind": "send", "process": "producer",
            "value": {"message_id": message_id, "body": json.dumps(fields), "key": oid,
                      "fields": fields, "valid": True, "duplicate_of": None}}


def test_losing_data_in_an_outage_is_not_a_small_penalty() -> None:
    # A synthetic history: 40 orders sent under db_outage, 32 never recorded. Judged by the
    # real checker, the loss caps the whole evaluation at the ceiling.
    sends = [_sent(f"o-{i}", f"m-{i}") for i in range(40)]
    ops = [dict(op, index=n, time=float(n)) for n, op in enumerate(sends)]
    kept = [Effect(key=f"o-{i}", fields={"order_id": f"o-{i}"}) for i in range(8)]
    history = make_history(ops, FinalState(effects=kept))
    lossy = run_checks(history, {"delivery.no_loss": {}})
    assert lossy["delivery.no_loss"].verdict == "fail"
    runs = [{"fault": f, "seed": 1, "outcome": "pass", "verdicts": dict.fromkeys(IDS, "pass")}
            for f in FAULTS if f != "db_outage"]
    runs.append({"fault": "db_outage", "seed": 1, "outcome": "fail",
                 "verdicts": dict.fromkeys(IDS, "pass") | {"delivery.no_loss": "fail"}})
    assert reward(SPEC, runs)["reward"] <= SPEC.ceiling


def test_a_version_1_report_is_read_and_given_the_new_reward(tmp_path: Path) -> None:
    run = RunResult("order-pipeline", "sol", "none", 1, "fail",
                    {}, None, {}).to_dict()
    run["invariants"] = {i: {"id": i, "verdict": "pass", "summary": "", "evidence": {},
                             "params": {}} for i in IDS}
    run["invariants"]["delivery.no_loss"]["verdict"] = "fail"
    old = {"format": "kit.report/1", "command": "kit eval", "scenario": "order-pipeline",
           "solution": "sol", "outcome": "fail", "reward": 0.92, "runs": [run | {"reward": 0.92}]}
    path = tmp_path / "report.json"
    path.write_text(json.dumps(old))
    doc = document.load(path, SPEC)
    assert doc["format"] == document.FORMAT
    assert doc["reward"] == round(SPEC.ceiling * (len(IDS) - 1) / len(IDS), 4)
    assert "reward" not in doc["runs"][0] and doc["runs"][0]["score"] is not None


def test_an_unknown_report_format_is_refused_with_the_formats_read(tmp_path: Path) -> None:
    path = tmp_path / "report.json"
    path.write_text(json.dumps({"format": "kit.report/9"}))
    with pytest.raises(Exception, match="kit.report/1, kit.report/2"):
        document.load(path)
