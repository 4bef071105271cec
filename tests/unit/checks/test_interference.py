"""workload.kit_unharmed, and `_judge` of a run whose solution harmed the kit's observer:
judged on that gate alone, the solution's `fail`, never the kit's `error`."""

from __future__ import annotations

from kit.checks import run_checks
from kit.checks.interference import KIT_UNHARMED
from kit.reward import GATES
from kit.run import _judge
from tests.unit.checks.builder import SCENARIO, HistoryBuilder, healthy_run

CAUSE = ("the kit's session was ended (57P01: terminating connection due to administrator "
         "command) while the server kept serving: another session terminated it")


def test_no_interference_passes_and_one_fails_naming_it() -> None:
    run = healthy_run(seed=2)
    assert run_checks(run.build(), {KIT_UNHARMED: {}})[KIT_UNHARMED].verdict == "pass"
    run.b.op("observer", "interference", target="the observer's database session",
             cause=CAUSE)
    result = run_checks(run.build(), {KIT_UNHARMED: {}})[KIT_UNHARMED]
    assert result.verdict == "fail" and "57P01" in result.summary
    assert result.evidence["harmed"]["count"] == 1


def test_a_run_that_harmed_the_observer_is_judged_on_the_gate_alone() -> None:
    b = HistoryBuilder()
    b.gate()
    b.deploy()
    b.worker_start("worker-0")
    b.op("observer", "interference", target="the observer's database session", cause=CAUSE)
    no_static = SCENARIO.model_copy(update={"invariants": {}})
    no_static.__dict__.pop("params", None)
    results, error = _judge(no_static, b.build())
    assert error is None
    assert {k for k, r in results.items() if r.verdict != "pass"} == {KIT_UNHARMED}
    assert KIT_UNHARMED in GATES
