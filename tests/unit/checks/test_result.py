"""Verdict combining, the checker loop, parameters and evidence capping."""

from __future__ import annotations

import pytest

from kit.checks import INVARIANTS, run_checks, worst
from kit.checks.params import ParamError, resolve
from kit.checks.result import MEMBER_CAP, CheckResult, anomaly
from kit.history import History

from .builder import IAM_PARAMS, RESOURCE_PARAMS, RETENTION_PARAMS, healthy_run, resolved

PARAMS = resolved({i: {} for i in INVARIANTS} | IAM_PARAMS | RESOURCE_PARAMS | RETENTION_PARAMS)


def _result(verdict: str) -> CheckResult:
    return CheckResult(id="x", verdict=verdict, summary="s")


@pytest.mark.parametrize(("verdicts", "expected"), [
    (["pass", "pass"], "pass"),
    (["pass", "fail"], "fail"),
    (["fail", "error", "pass"], "fail"),  # an error must not hide a fail (Jepsen)
    (["error", "pass"], "error"),
    (["error"], "error"),
    ([], "error"),  # nothing judged must not pass
])
def test_worst(verdicts, expected):
    assert worst(verdicts) == expected
    assert worst([_result(v) for v in verdicts]) == expected


def test_worst_refuses_unknown_verdicts():
    with pytest.raises(ValueError, match="unknown verdict 'maybe'"):
        worst(["pass", "maybe"])


def test_healthy_run_passes_every_invariant():
    results = run_checks(healthy_run(seed=1).build(), PARAMS)
    assert {i: r.verdict for i, r in results.items()} == {i: "pass" for i in INVARIANTS}, results


def test_crashing_checker_is_an_error_never_a_pass():
    def boom(history: History, params: dict) -> CheckResult:
        raise RuntimeError("kaput")

    results = run_checks(History(), {"x.boom": {}}, registry={"x.boom": boom})
    assert results["x.boom"].verdict == "error"
    assert "RuntimeError: kaput" in results["x.boom"].summary


def test_checker_returning_garbage_is_an_error():
    results = run_checks(History(), {"x.bad": {}}, registry={"x.bad": lambda h, p: True})
    assert results["x.bad"].verdict == "error"


def test_unknown_invariant_lists_the_valid_ids():
    results = run_checks(History(), {"delivery.no_los": {}})
    assert results["delivery.no_los"].verdict == "error"
    assert "delivery.no_loss" in results["delivery.no_los"].summary


def test_bad_params_are_refused_naming_the_fix():
    # Refused where they are resolved, once, when the scenario is loaded (its error names
    # the file and field: tests/unit/checks/test_invariants.py), never mid-run.
    with pytest.raises(ParamError, match=r"rto_seconds \(default 60.0\)"):
        INVARIANTS["recovery.within_rto"].params({"rto_second": 5})
    with pytest.raises(ParamError, match="expected a positive integer"):
        INVARIANTS["rds.hardening"].params({"min_backup_retention_days": "7"})
    with pytest.raises(ParamError, match=r"expected true or false \(default false\)"):
        INVARIANTS["workload.workers_start"].params({"keeps_running": 1})


def test_resolve_applies_defaults_and_types():
    assert resolve("c", None, {"rto_seconds": 60.0}) == {"rto_seconds": 60.0}
    assert resolve("c", {"rto_seconds": 5}, {"rto_seconds": 60.0}) == {"rto_seconds": 5}
    for bad in (True, 0, -1, "5"):
        with pytest.raises(ParamError):
            resolve("c", {"rto_seconds": bad}, {"rto_seconds": 60.0})
    with pytest.raises(ParamError):
        resolve("c", {"max_receives": 2.5}, {"max_receives": 3})


def test_result_records_the_params_used():
    results = run_checks(healthy_run(seed=1).build(), resolved({"recovery.within_rto": None}))
    assert results["recovery.within_rto"].params == {"rto_seconds": 60.0}


def test_anomaly_caps_members_and_keeps_the_count():
    ev = anomaly([f"o-{i}" for i in range(50)])
    assert ev["count"] == 50 and len(ev["members"]) == MEMBER_CAP and ev["truncated"]
    assert ev["example"] == "o-0"
    assert anomaly([]) == {"count": 0, "members": [], "truncated": False, "example": None}
