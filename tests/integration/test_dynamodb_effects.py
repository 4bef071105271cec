"""DynamoDB as the effect store, end to end: tests/fixtures/dynamodb-orders (SQS -> the kit's
process workers, boto3 to DynamoDB -> a table of one item per order, a table of balances
kept with `ADD`) through the kit's own matrix.

- the golden's conditional transaction (put if absent + ADD, together) passes
  delivery.no_loss and idempotency.effects_once under duplicate delivery;
- two unconditional writes (a counter without a dedup condition) fail
  idempotency.effects_once: the balances count a redelivered order twice;
- `dynamodb:*` on `*` fails iam.least_privilege, judged on the DynamoDB grants.
"""

from __future__ import annotations

from pathlib import Path

from kit import scenario
from kit.validate import validate
from tests.conftest import ROOT
from tests.integration.conftest import traversable_tmp

FIXTURE = ROOT / "tests" / "fixtures" / "dynamodb-orders"
tmp_path = traversable_tmp("kit-dynamodb-")


def test_dynamodb_effects_are_judged_as_items(tmp_path: Path) -> None:
    orders = scenario.load(FIXTURE / "scenarios" / "dynamodb-orders" / "scenario.yaml")
    rows = validate(orders, tmp_path, jobs=2,
                    only={"golden", "counter-not-conditional", "wildcard-grant"})
    golden = [r for r in rows if r.subject == "golden"]
    assert {r.fault for r in golden} == {"none", "duplicate_delivery"}
    for row in rows:
        assert row.ok, (row.subject, row.fault, row.statuses,
                        {i: r.summary for run in row.runs for i, r in run.results.items()
                         if r.verdict != "pass"})
    duplicated = next(r for r in golden if r.fault == "duplicate_delivery").runs[0]
    assert duplicated.results["workload.fault_injected"].verdict == "pass"
    assert duplicated.results["delivery.no_loss"].verdict == "pass"
    counter = next(r for r in rows if r.subject == "counter-not-conditional").runs[0]
    assert counter.results["idempotency.effects_once"].evidence["wrong_total"]["count"] > 0
