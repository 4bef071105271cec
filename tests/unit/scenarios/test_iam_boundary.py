"""iam-boundary: its workload plan, what a valid job is, and its contract as loaded."""

from __future__ import annotations

import json

import pytest

from kit import scenario

SC = scenario.load("iam-boundary")
MODULE = SC.workload_module


def _plan(seed: int) -> list:
    return MODULE.plan(seed, SC.workload_params)


def test_the_plan_is_seeded_and_has_what_the_params_ask() -> None:
    plan = _plan(3)
    assert plan == _plan(3) and plan != _plan(4)
    facts = [MODULE.describe(s.body) for s in plan]
    assert all(f.valid for f in facts)
    assert len({f.key for f in facts}) == 40
    repeats = [s for s in plan if s.duplicate_of is not None]
    assert len(repeats) == 6
    assert all(plan[s.duplicate_of].body == s.body for s in repeats)
    assert {f.fields["scene"] for f in facts} <= {f"scene-{i}" for i in range(5)}


@pytest.mark.parametrize("body", [
    "not json", json.dumps(["a"]), json.dumps({"job_id": "j", "scene": "s"}),
    json.dumps({"job_id": "j", "scene": "s", "frames": 0}),
    json.dumps({"job_id": "j", "scene": "s", "frames": 501}),
    json.dumps({"job_id": "j", "scene": "s", "frames": True}),
    json.dumps({"job_id": 7, "scene": "s", "frames": 3}),
])
def test_what_is_not_a_job(body: str) -> None:
    assert not MODULE.describe(body).valid


def test_the_contract_binds_the_baseline_and_keeps_effects_in_the_bucket() -> None:
    assert SC.baseline is not None and SC.baseline.module == "org-baseline"
    assert set(SC.contract.variables.values()) >= {
        "baseline.boundary_policy_arn", "baseline.kms_key_arn", "baseline.jobs_rule_arn"}
    assert (SC.workload.effects.kind, SC.workload.effects.resource) == (
        "bucket", "bucket.results")
    iam_faults = {"iam_deny", "policy_rollback", "boundary_tightened", "statement_removed",
                  "resource_deny", "trust_narrowed"}
    assert iam_faults <= {f.kind for f in SC.faults.values()}
