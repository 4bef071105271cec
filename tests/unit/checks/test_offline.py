"""Checkers are pure: same history, same results, also after a JSON round-trip; and fast."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from kit.checks import INVARIANTS, run_checks
from kit.history import History

from .builder import (
    IAM_PARAMS,
    RESOURCE_PARAMS,
    RETENTION_PARAMS,
    Run,
    finish_run,
    healthy_run,
    resolved,
)
from .builder import PARAMS as SCENARIO_PARAMS

PARAMS = resolved({i: {} for i in INVARIANTS} | {
    "idempotency.effects_once": SCENARIO_PARAMS["idempotency.effects_once"]} | IAM_PARAMS
    | RESOURCE_PARAMS | RETENTION_PARAMS)


def _lost(run: Run) -> None:
    run.final["orders"].pop(3)


def _duplicate_row(run: Run) -> None:
    run.final["orders"].append(dict(run.final["orders"][0]))


def _poison_stuck(run: Run) -> None:
    run.final["queue_messages"].append(run.final["dlq_messages"].pop())


def _insecure_db(run: Run) -> None:
    run.final["db_instance"]["PubliclyAccessible"] = True


def _no_final(run: Run) -> None:
    run.b.final = None


SPOILERS: dict[str, Callable[[Run], None]] = {
    "healthy": lambda run: None,
    "lost": _lost,
    "duplicate_row": _duplicate_row,
    "poison_stuck": _poison_stuck,
    "insecure_db": _insecure_db,
    "no_final": _no_final,
}


def _concurrent() -> History:
    run = healthy_run(seed=13, finish=False)
    m = run.orders["o-0000"]
    run.b.receive("worker-0", m)
    run.b.receive("worker-1", m)
    run.b.delete("worker-0", m)
    finish_run(run)
    return run.build()


def _histories() -> dict[str, History]:
    out = {}
    for name, spoil in SPOILERS.items():
        run = healthy_run(seed=13, fault="db_latency")
        spoil(run)
        out[name] = run.build()
    out["concurrent"] = _concurrent()
    return out


@pytest.mark.parametrize(("name", "history"), list(_histories().items()))
def test_same_verdicts_after_json_round_trip(name, history, tmp_path):
    before = run_checks(history, PARAMS)
    after = run_checks(History.load(history.save(tmp_path / f"{name}.json")), PARAMS)
    assert after == before
    assert run_checks(history, PARAMS) == before  # and again: deterministic


def test_spoilers_fail_the_invariant_named_for_them():
    expected = {
        "healthy": set(),
        # The row vanished after the observer saw it in time: recovery is not at fault; the
        # balance still counts the order, so effects_once is.
        "lost": {"delivery.no_loss", "idempotency.effects_once"},
        "duplicate_row": {"idempotency.effects_once"},
        "poison_stuck": {"delivery.poison_to_dlq"},
        "insecure_db": {"rds.hardening"},
        "concurrent": {"delivery.no_concurrent_processing"},
    }
    histories = _histories()
    for name, failing in expected.items():
        results = run_checks(histories[name], PARAMS)
        assert {i for i, r in results.items() if r.verdict == "fail"} == failing, name
        assert all(r.verdict != "error" for r in results.values()), name


def test_no_final_state_errors_the_final_state_checkers():
    results = run_checks(_histories()["no_final"], PARAMS)
    assert {i for i, r in results.items() if r.verdict == "error"} == {
        "delivery.no_loss", "delivery.poison_to_dlq", "delivery.no_valid_in_dlq",
        "idempotency.effects_once", "rds.hardening", "iam.required_access",
        "iam.least_privilege", "iam.resource_exposure", "iam.permissions_boundary",
        "encryption.at_rest", "delivery.retention", "recovery.consistent",
        "rds.deletion_protection"}


def test_each_checker_passes_a_healthy_ten_thousand_op_history():
    # Speed is measured by `make bench`, not asserted here.
    history = healthy_run(seed=17, orders=2_500, duplicates=200, workers=8).build()
    assert len(history.ops) > 10_000
    # The builder's workers drain the queue after the producer stops: allow them the time.
    params = resolved({i: {} for i in INVARIANTS} | {"recovery.within_rto": {"rto_seconds": 3600}}
                      | IAM_PARAMS | RESOURCE_PARAMS | RETENTION_PARAMS)
    for check_id, row in INVARIANTS.items():
        result = row.check(history, params[check_id])
        assert result.verdict == "pass", (check_id, result.summary)
