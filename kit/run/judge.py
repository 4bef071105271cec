"""The check stage's policy: which invariants a run can judge, given how far it got, and
what the run reports beside the verdicts (confinement, used vs granted)."""

from __future__ import annotations

from typing import Any

from kit.checks import CheckResult, invariants, run_checks, worst
from kit.checks.interference import KIT_UNHARMED
from kit.checks.least_privilege import LEAST
from kit.checks.producer import PRODUCER_SENDS
from kit.history import History
from kit.iam.usage import used_vs_granted
from kit.sandbox import support
from kit.scenario import Scenario


def judge(scenario: Scenario, history: History) -> tuple[dict[str, CheckResult], str | None]:
    """The verdicts of the invariants this run can judge, and a kit error if it judged
    nothing it should have (no path of a solution's making leads there)."""
    registry = scenario.registry
    # A solution stopped by the gate, or that did not deploy, is judged on that alone:
    # nothing else ran.
    if any(op.value.violations for op in history.of_kind("gate")):
        return run_checks(history, {"deploy.allowed_constructs": {}}, registry), None
    if not all(op.value.ok for op in history.of_kind("deploy")):
        return run_checks(history, invariants.defaults(invariants.before_workload()),
                          registry), None
    # A drill has no workers: its gate is the application's writes (the table's always rows).
    # The scenario's own params win (workload.workers_start's keeps_running).
    always = {i: scenario.params.get(i, p) for i, p in
              invariants.defaults(invariants.always(scenario.workload.kind)).items()}
    static = {k: v for k, v in scenario.params.items() if scenario.table[k].static}
    if scenario.workload.kind == "drill" and not history.of_kind("write"):
        return run_checks(history, always | static, registry), None  # nothing was recovered
    if history.of_kind("interference"):  # it harmed the kit's observer: judged on that
        return run_checks(history, always | static | {KIT_UNHARMED: {}}, registry), None
    # No worker ever ran (a crash loop; team mode: their role refused their service).
    if history.of_kind("crash_loop") or history.of_kind("session_refused"):
        return run_checks(history, always | static, registry), None
    failed_sends = [op for op in history.ops if op.kind == "send" and op.type == "fail"]
    if failed_sends and not history.of_kind("send"):
        # AWS refused every send (4xx; a 5xx stops the run as the kit's): nothing was
        # processed, so judge what needs no workload. Where none of that names the cause,
        # the producer's gate does, with the refusals as evidence (kit/checks/producer.py):
        # the solution's queue refused the contract's producer, never "cannot tell why".
        results = run_checks(history, always | static, registry)
        if worst(results.values()) == "pass":
            results |= run_checks(history, {PRODUCER_SENDS: {}}, registry)
        return results, None
    return run_checks(history, always | scenario.params, registry), None


def confinement(history: History) -> dict[str, Any]:
    """How the run's processes were confined (each role's axes) and what this machine
    could not give."""
    lacking = support.missing()
    return {"complete": not lacking, "missing": lacking,
            "roles": {op.value.role: op.value.as_dict() for op in history.of_kind("confinement")}}


def usage(scenario: Scenario, history: History) -> dict[str, Any] | None:
    """Used vs granted per role of the run's processes (None when nothing ran)."""
    if history.final is None or not history.final.iam:
        return None
    # An unlisted iam.least_privilege: its defaults, from the invariant table.
    services = (scenario.params.get(LEAST) or invariants.INVARIANTS[LEAST].params())["services"]
    drill = scenario.workload.drill
    if drill is not None:
        processes = {"app": drill.app.role,
                     **({"runbook": drill.runbook.role} if drill.runbook else {})}
    else:
        assert scenario.workers is not None and scenario.workload.producer is not None
        processes = {"worker-": scenario.workers.role,
                     "producer": scenario.workload.producer.role}
    return used_vs_granted(history, services, processes)
