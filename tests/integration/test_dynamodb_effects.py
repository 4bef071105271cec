"""DynamoDB as the effect store, end to end: tests/fixtures/dynamodb-orders (SQS -> the kit's
process workers, boto3 to DynamoDB -> a table of one item per order, a table of balances
kept with `ADD`) through the kit's own matrix.

- the golden's conditional transaction (put if absent + ADD, together) passes
  delivery.no_loss and idempotency.effects_once under duplicate delivery, and under an IAM
  deny of every DynamoDB call (its refused orders come back);
- a worker that takes any refused write for "already recorded" and deletes the order fails
  delivery.no_loss under that deny;
- two unconditional writes (a counter without a dedup condition) fail
  idempotency.effects_once: the balances count a redelivered order twice;
- `dynamodb:*` on `*` fails iam.least_privilege, judged on the DynamoDB grants.
"""

from __future__ import annotations

from pathlib import Path

from kit import scenario
from kit.evaluate.validate import validate
from tests.conftest import ROOT
from tests.integration.conftest import traversable_tmp

FIXTURE = ROOT / "tests" / "fixtures" / "dynamodb-orders"
tmp_path = traversable_tmp("kit-dynamodb-")


def test_dynamodb_effects_are_judged_as_items(tmp_path: Path) -> None:
    orders = scenario.load(FIXTURE / "scenarios" / "dynamodb-orders" / "scenario.yaml")
    rows = validate(orders, tmp_path, jobs=2,
                    only={"golden", "counter-not-conditional", "wildcard-grant",
                          "swallow-write-errors"})
    golden = [r for r in rows if r.subject == "golden"]
    assert {r.fault for r in golden} == {"none", "duplicate_delivery", "dynamodb_revoke"}
    for row in rows:
        assert row.ok, (row.subject, row.fault, row.statuses,
                        {i: r.summary for run in row.runs for i, r in run.results.items()
                         if r.verdict != "pass"})
    for fault in ("duplicate_delivery", "dynamodb_revoke"):
        run = next(r for r in golden if r.fault == fault).runs[0]
        assert run.results["workload.fault_injected"].verdict == "pass", fault
    counter = next(r for r in rows if r.subject == "counter-not-conditional").runs[0]
    assert counter.results["idempotency.effects_once"].evidence["wrong_total"]["count"] > 0
