"""A Lambda consumer behind an SQS event source mapping, run by the kit's Lambda service
(kit/lambdas/), end to end: the fixture tests/fixtures/lambda (SQS -> Lambda -> S3) through
real Terraform, moto, the gateway and the sandboxes.

Behaviours, each from the Lambda developer guide:
- "Handling errors for an SQS event source in Lambda": without ReportBatchItemFailures an
  error fails the whole batch, whose other records come back and are applied again;
- "Implementing partial batch responses": with them only the reported record comes back;
- "Using Lambda with Amazon SQS": a batch whose invocation was killed is delivered again,
  whole (at least once); the function's timeout ends an invocation as a failure;
- "Configuring scaling behavior for SQS event source mappings": a reserved concurrency of
  0 throttles every invocation, whose batches return to the queue.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from kit import scenario as scenarios
from kit import variants
from kit.evaluate.validate import validate
from kit.history import History
from kit.run.pipeline import run_once
from kit.run.result import RunResult
from kit.run.sandbox import Sandbox
from tests.conftest import ROOT
from tests.integration.conftest import traversable_tmp

FIXTURE = ROOT / "tests" / "fixtures" / "lambda"
SC = scenarios.load(FIXTURE / "scenarios" / "sqs-lambda" / "scenario.yaml")
NO_PARTIAL = "batch-retried-without-partial-response"
UNIQUE_WRITES = "unique-writes-under-crash"
SHORT_VISIBILITY = "visibility-below-function-timeout"

tmp_path = traversable_tmp("kit-lambda-")


@pytest.fixture(scope="module")
def sandbox() -> Iterator[Sandbox]:
    with Sandbox(provider=True) as sb:
        yield sb


def _failed(result: RunResult) -> set[str]:
    assert result.error is None, result.error
    assert not [i for i, r in result.results.items() if r.verdict == "error"]
    return {i for i, r in result.results.items() if r.verdict == "fail"}


def _invocations(result: RunResult) -> Counter[str]:
    history = History.load(Path(result.run_dir) / "history.json")
    return Counter(str(op.value.as_dict().get("outcome")) for op in history.ops
                   if op.kind == "invocation" and op.type != "invoke")


def test_without_partial_batch_responses_the_other_records_are_applied_again(
        tmp_path: Path) -> None:
    # Rows of the kill matrix: the raising handler without ReportBatchItemFailures (no
    # fault: the retries alone re-apply), and the same non-idempotent writes with partial
    # batch responses under a crash mid-batch (a killed invocation's batch comes back
    # whole): each must fail idempotency.effects_once and nothing else. And a queue whose
    # visibility timeout is below the function's timeout, which Lambda refuses to map.
    rows = validate(SC, tmp_path, golden=False,
                    only={NO_PARTIAL, UNIQUE_WRITES, SHORT_VISIBILITY})
    assert {row.subject: (row.ok, [r.outcome for r in row.runs]) for row in rows} == {
        NO_PARTIAL: (True, ["fail"]), UNIQUE_WRITES: (True, ["fail"]),
        SHORT_VISIBILITY: (True, ["fail"])}
    crash = next(row for row in rows if row.subject == UNIQUE_WRITES).runs[0]
    assert _invocations(crash)["failed"] >= 1  # the killed invocation


def test_partial_batch_responses_retry_only_the_failed_record(sandbox: Sandbox,
                                                              tmp_path: Path) -> None:
    # The same non-idempotent writes pass when only the poison record is reported failed,
    # here under throttling too (one run for both): a throttled batch was never invoked,
    # so it comes back with nothing of it applied.
    variant = variants.load(SC, SC.variants_dir / UNIQUE_WRITES)
    solution = variants.materialize(SC, variant, tmp_path / "solution")
    result = run_once(SC, solution, "throttle", 1, tmp_path / "run", sandbox)
    assert _failed(result) == set()
    outcomes = _invocations(result)
    assert outcomes["partial"] >= 1 and outcomes["throttled"] >= 1, outcomes
    assert outcomes["failed"] == 0, outcomes
    history = History.load(Path(result.run_dir) / "history.json")
    # The worker history the checkers read: receives and deletes by the slots' sessions.
    assert {op.process.split("#")[0] for op in history.of_kind("receive", "delete")} <= {
        "worker-0", "worker-1"}  # maximum_concurrency 2: two slots
    (deployed,) = [op.value.as_dict() for op in history.ops if op.kind == "lambda"]
    assert deployed["mapping"]["report_failures"] is True
    assert (deployed["timeout"], deployed["code"]) == (5, "lambda")


def test_the_golden_recovers_from_invocations_past_their_timeout(sandbox: Sandbox,
                                                                 tmp_path: Path) -> None:
    result = run_once(SC, SC.golden, "timeout", 1, tmp_path / "run", sandbox)
    assert _failed(result) == set()
    history = History.load(Path(result.run_dir) / "history.json")
    reasons = [op.value.as_dict()["reason"] for op in history.ops
               if op.kind == "invocation" and op.type == "fail"]
    assert "Task timed out after 5.00 seconds" in reasons  # the fault bit
