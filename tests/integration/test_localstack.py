"""LocalStack as the emulator, RDS served by moto: every golden passes under its faults
(in `make test` rds-recovery's, and order-pipeline's as the LocalStack run of the
cross-check; every one in the slow tier), a cross-check of a golden finds nothing, a
known difference between the emulators is a fidelity finding (never the solution's
failure), and a LocalStack the user runs (`--emulator-url`) is used and left without the
kit's resources."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from kit import aws, scenario
from kit.evaluate import crosscheck, runner
from kit.run.pipeline import run_once
from kit.run.result import RunResult
from kit.run.sandbox import Sandbox
from kit.sandbox.localstack import LocalStackServer
from kit.toolchain import localstack_install
from kit.variants import load_all, materialize

SCENARIOS = [name for name in scenario.known() if scenario.load(name).root == scenario.ROOT]
# The fault each scenario runs under in `make test`: a killed worker exercises the
# visibility timeout, which LocalStack implements on its own timer.
QUICK = "worker_crash"
# In `make test`: the drill (RDS through the kit's front), and a queue scenario's golden,
# order-pipeline's, as the cross-check's LocalStack run (one run proves both: a golden
# that passes under worker_crash on LocalStack, and a cross-check with no finding); every
# scenario under every fault in the slow tier.
QUICK_SCENARIOS = ("rds-recovery",)
CROSS_CHECKED = "order-pipeline"


def _explain(result: RunResult) -> str:
    bad = {i: r.summary for i, r in result.results.items() if r.verdict != "pass"}
    return f"{result.fault} seed {result.seed}: {result.outcome} {result.error or ''} {bad}"


@pytest.fixture(scope="module")
def sandbox() -> Iterator[Sandbox]:
    if localstack_install.python() is None:
        pytest.fail(f"LocalStack is not installed: run `{localstack_install.FIX}`")
    with Sandbox(provider=True, emulator="localstack") as sb:
        yield sb


def _cases() -> list:
    cases = []
    for name in SCENARIOS:
        faults = list(scenario.load(name).faults)
        quick = QUICK if QUICK in faults else faults[-1]
        cases += [pytest.param(name, f, marks=[] if f == quick and name in QUICK_SCENARIOS
                               else [pytest.mark.slow])
                  for f in faults]
    return cases


@pytest.mark.timeout(900)
@pytest.mark.parametrize(("name", "fault"), _cases())
def test_golden_passes_on_localstack(sandbox: Sandbox, tmp_path: Path, name: str,
                                     fault: str) -> None:
    sc = scenario.load(name)
    result = run_once(sc, sc.golden, fault, 1, tmp_path, sandbox)
    assert result.outcome == "pass", _explain(result)
    _served_by_localstack(result.emulators)


def _served_by_localstack(emulators: dict[str, str] | None) -> None:
    """Every AWS service but RDS (moto, through the kit's front) was LocalStack's."""
    assert emulators is not None
    assert emulators.get("rds", "moto") == "moto"
    assert {e for s, e in emulators.items() if s != "rds"} == {"localstack"}


def _plan(tmp_path: Path, solution: Path, fault: str) -> runner.Plan:
    return runner.Plan(scenario.load("order-pipeline"), solution, [fault], [1], tmp_path)


@pytest.mark.timeout(900)
def test_cross_check_of_the_golden_finds_nothing(tmp_path: Path, no_localstack_left: Path
                                                ) -> None:
    # Under QUICK: its LocalStack run is also the queue scenario's golden on LocalStack
    # (test_golden_passes_on_localstack's order-pipeline row, slow), and a whole LocalStack
    # run that leaves nothing behind (test_localstack_leaks.py's run without a Ctrl-C, slow).
    plan = _plan(tmp_path, scenario.load(CROSS_CHECKED).golden, QUICK)
    runs, findings = crosscheck.cross_check(plan, "moto", None, lambda label, run: None)
    assert not findings, [f.to_dict() for f in findings]
    assert [run.outcome for run in runs] == ["pass"]
    witness = json.loads((tmp_path / "localstack" / f"{QUICK}-seed1" / "result.json")
                         .read_text())
    assert witness["outcome"] == "pass", witness
    _served_by_localstack(witness["emulators"])


@pytest.mark.slow  # ~3 min: the validate tier
@pytest.mark.timeout(900)
def test_a_known_difference_is_a_fidelity_finding(tmp_path: Path) -> None:
    # No redrive: the worker releases poison at once, forever. LocalStack hands a released
    # message out again first (as moto does without the kit's fix), so released poison
    # starves the valid orders behind it and they are never recorded; on moto with the
    # kit's fix the valid orders are recorded. Only the redrive invariant is the defect's.
    sc = scenario.load("order-pipeline")
    variant = next(v for v in load_all(sc) if v.name == "no-redrive")
    solution = materialize(sc, variant, tmp_path / "solution")
    runs, findings = crosscheck.cross_check(_plan(tmp_path / "runs", solution, "none"), "moto",
                                            None, lambda label, run: None)
    disputed = {f.invariant: f for f in findings}
    assert "delivery.no_loss" in disputed, [f.to_dict() for f in findings]
    finding = disputed["delivery.no_loss"]
    assert finding.verdicts == {"moto": "pass", "localstack": "fail"}
    released = finding.behaviours["sqs.released_waits_its_turn"]
    assert released["differ"] and released["verdict"] == "moto behaves as AWS documents"
    # Set aside, not blamed: the graded run fails only for the variant's own defect.
    failed = {i for i, r in runs[0].results.items() if r.verdict == "fail"}
    assert failed == {"delivery.poison_to_dlq"}
    assert "delivery.no_loss" not in runs[0].results


@pytest.mark.slow  # a LocalStack of its own besides the sandbox's: the validate tier
@pytest.mark.timeout(900)
def test_a_running_localstack_is_used_and_left_empty(tmp_path: Path) -> None:
    # The user's LocalStack, as tflocal workflows run one: the kit starts nothing of its
    # own for it, empties its account between runs, and leaves it empty.
    sc = scenario.load("order-pipeline")
    (tmp_path / "theirs").mkdir()
    server = LocalStackServer(tmp_path / "theirs")
    try:
        server.wait_ready()
        with Sandbox(provider=True, emulator="localstack", emulator_url=server.url) as sb:
            assert sb.endpoint("sqs") == server.url and sb.endpoint("rds") == sb.rds.url
            for seed in (1, 2):  # the second run starts from an emptied account
                result = run_once(sc, sc.golden, "none", seed, tmp_path / str(seed), sb)
                assert result.outcome == "pass", _explain(result)
        assert aws.client("sqs", server.url).list_queues().get("QueueUrls", []) == []
        assert aws.client("iam", server.url).list_roles()["Roles"] == []
        assert server.process.alive()
    finally:
        server.stop()
