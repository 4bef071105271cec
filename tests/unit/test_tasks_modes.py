"""The reward cost modes (kit/tasks/modes.py): each stated property on unit cases, with
the real reward (kit/reward.py) over synthetic verdicts."""

from __future__ import annotations

from collections import Counter

import pytest

from kit.errors import InputError
from kit.reward import RewardSpec, reward
from kit.tasks.modes import draw, expected_sampled, faults_for, seed_for

FAULTS = ["none", "worker_crash", "db_outage", "duplicate_delivery"]
SPEC = RewardSpec()  # ceiling 0.5


def _runs(verdicts_by_fault: dict[str, dict[str, str]]) -> list[dict]:
    return [{"fault": f, "seed": 1, "outcome": "fail" if "fail" in v.values() else "pass",
             "verdicts": v} for f, v in verdicts_by_fault.items()]


def full(verdicts_by_fault: dict[str, dict[str, str]]) -> float:
    return reward(SPEC, _runs(verdicts_by_fault))["reward"]


def sampled(verdicts_by_fault: dict[str, dict[str, str]], seed: int) -> float:
    (fault,) = faults_for("sampled", list(verdicts_by_fault), seed)
    return reward(SPEC, _runs({fault: verdicts_by_fault[fault]}))["reward"]


def expectation(verdicts_by_fault: dict[str, dict[str, str]]) -> float:
    """E over seeds: the draw is uniform over the faults, so the mean over faults."""
    return sum(reward(SPEC, _runs({f: v}))["reward"] for f, v in verdicts_by_fault.items()) \
        / len(verdicts_by_fault)


PASS = {"delivery.no_loss": "pass", "recovery.within_rto": "pass", "deploy.applies": "pass"}
MINOR = RewardSpec(severities={"recovery.within_rto": "minor"})


def test_full_runs_every_fault_and_sampled_the_one_the_seed_draws():
    assert faults_for("full", FAULTS, 7) == FAULTS
    assert faults_for("sampled", FAULTS, 7) == [draw(FAULTS, 7)] == faults_for("sampled",
                                                                                FAULTS, 7)
    with pytest.raises(InputError, match="known: full, sampled"):
        faults_for("cheap", FAULTS, 1)


def test_the_draw_is_uniform_over_the_faults():
    seen = Counter(draw(FAULTS, seed) for seed in range(4000))
    assert set(seen) == set(FAULTS)
    assert all(abs(n / 4000 - 0.25) < 0.03 for n in seen.values())
    assert draw(FAULTS, seed_for(FAULTS, "db_outage")) == "db_outage"


def test_property_1_all_pass_is_1_in_both_modes_at_every_seed_a_gate_0():
    good = dict.fromkeys(FAULTS, PASS)
    assert full(good) == 1.0 and {sampled(good, s) for s in range(50)} == {1.0}
    gated = dict.fromkeys(FAULTS, PASS | {"deploy.applies": "fail"})
    assert full(gated) == 0.0 and {sampled(gated, s) for s in range(50)} == {0.0}


def test_property_2_with_no_major_failure_sampled_is_unbiased():
    # A minor invariant failing under one fault: no cap, so E[sampled] = full.
    runs = dict.fromkeys(FAULTS, PASS) | {"db_outage": PASS | {"recovery.within_rto": "fail"}}
    minor_full = reward(MINOR, _runs(runs))["reward"]
    minor_mean = sum(reward(MINOR, _runs({f: v}))["reward"] for f, v in runs.items()) / 4
    assert minor_mean == pytest.approx(minor_full, abs=1e-4)  # the reward rounds to 4 places
    assert minor_full < 1.0


def test_property_3_a_major_failure_makes_sampled_an_upper_bound_with_the_stated_gap():
    # Data lost under one fault of four: full caps everything, sampled only that draw.
    runs = dict.fromkeys(FAULTS, PASS) | {"db_outage": PASS | {"delivery.no_loss": "fail"}}
    f, e = full(runs), expectation(runs)
    assert e > f
    share_clean = 3 / 4
    assert e - f == pytest.approx((1 - SPEC.ceiling) * share_clean, abs=1e-3)  # tight here
    assert f == pytest.approx((1 + 1 + 1 + 2 / 3) / 4 * 0.5, abs=1e-4)
    # Caught (below 1) only when the seed draws the exposing fault: 1 in 4.
    caught = sum(sampled(runs, s) < 1.0 for s in range(4000)) / 4000
    assert abs(caught - 0.25) < 0.03


def test_property_4_a_failure_judged_in_every_run_is_caught_at_every_seed():
    everywhere = dict.fromkeys(FAULTS, PASS | {"iam.least_privilege": "fail"})
    assert {sampled(everywhere, s) for s in range(50)} == {full(everywhere)}
    assert full(everywhere) < 1.0


def test_expected_sampled_from_one_full_grading_is_the_mean_of_each_fault_alone():
    runs = dict.fromkeys(FAULTS, PASS) | {"db_outage": PASS | {"delivery.no_loss": "fail"}}
    assert expected_sampled(SPEC, _runs(runs)) == pytest.approx(expectation(runs), abs=1e-4)
    assert expected_sampled(SPEC, []) is None
