"""Blame lands where it belongs: a condition the solution causes is its `fail`, never an
`error` that would drop the run from the reward (an `error` is the kit's, or the
emulator's, and names the gap).

- workers that stay up and never act: no fault can be triggered, nothing is recorded;
- a worker role without sqs:DeleteMessage: messages come back until the DLQ takes them,
  and a fault that loses deletes can never be injected;
- a producer refused by the solution's own policy: nothing is ever sent.

Each runs in make test under the faults that matter most for it; under every fault in
the slow tier (make validate).
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from kit.run.pipeline import run_once
from kit.run.result import RunResult
from kit.run.sandbox import Sandbox
from tests.integration.small import small_order_pipeline

SC = small_order_pipeline(quiescence_seconds=15, patience_seconds=8)
IDLE_WORKER = """import signal, sys, threading
stop = threading.Event()
signal.signal(signal.SIGTERM, lambda *_: stop.set())
stop.wait()  # up, healthy, and never touching the queue
sys.exit(0)
"""
QUICK = {"idle-workers": ["db_outage"],
         "worker-cannot-delete": ["duplicate_delivery"],
         "producer-refused": ["none"]}


@pytest.fixture(scope="module")
def sandbox() -> Iterator[Sandbox]:
    with Sandbox(provider=True) as sb:
        yield sb


def _solution(tmp_path: Path, case: str) -> Path:
    solution = tmp_path / "solution"
    shutil.copytree(SC.golden, solution, ignore=shutil.ignore_patterns("__pycache__"))
    if case == "idle-workers":
        (solution / "worker" / "__main__.py").write_text(IDLE_WORKER)
    elif case == "worker-cannot-delete":
        iam = solution / "iam.tf"
        iam.write_text(iam.read_text().replace('        "sqs:DeleteMessage",\n', ""))
    elif case == "producer-refused":
        iam = solution / "iam.tf"
        iam.write_text(iam.read_text().replace(
            'Action   = "sqs:SendMessage"', 'Action   = "sqs:GetQueueUrl"'))
    return solution


def _judged_as_the_solutions_failure(result: RunResult) -> None:
    errors = {i: r.summary for i, r in result.results.items() if r.verdict == "error"}
    assert result.outcome == "fail" and result.error is None and not errors, (
        result.outcome, result.error, errors)


def _cases(slow: bool) -> list:
    return [pytest.param(case, fault, marks=[pytest.mark.slow] if slow else [])
            for case, quick in QUICK.items() for fault in SC.faults
            if (fault in quick) != slow]


@pytest.mark.parametrize(("case", "fault"), _cases(slow=False) + _cases(slow=True))
def test_a_condition_the_solution_causes_is_its_fail(sandbox: Sandbox, tmp_path: Path,
                                                     case: str, fault: str) -> None:
    result = run_once(SC, _solution(tmp_path, case), fault, 1, tmp_path / "run", sandbox)
    _judged_as_the_solutions_failure(result)
    failed = {i for i, r in result.results.items() if r.verdict == "fail"}
    if case == "idle-workers":
        assert "workload.workers_start" in failed
    elif case == "producer-refused":
        # Nothing is sent, so nothing is recorded: no fault can be triggered either.
        assert failed == {"iam.required_access"} | (
            {"workload.fault_injected"} if fault != "none" else set())
    else:
        assert "iam.required_access" in failed
    if fault != "none" and case != "producer-refused":
        injected = result.results["workload.fault_injected"].verdict
        # The idle workers never record anything, so no fault can be triggered; without
        # deletes, lost deletes cannot be injected; the other faults still can be.
        assert injected == ("fail" if case == "idle-workers" or fault == "duplicate_delivery"
                            else "pass")
