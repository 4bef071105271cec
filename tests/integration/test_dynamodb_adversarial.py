"""Reward-hacking cases against a DynamoDB effect store (tests/adversarial/dynamodb-orders/,
one-defect variants of tests/fixtures/dynamodb-orders' golden), judged by the kit's own
matrix: each is caught for its named invariant, no run is the kit's `error`.

- wildcard-via-table-policy: a narrow role policy, and `dynamodb:*` for the worker in the
  effects table's resource-based policy: least privilege counts resource-policy grants;
- table-name-refused: the effects_table output names no table (a name DynamoDB refuses):
  the solution's fail at the outputs, not a scan error of the kit's.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from kit import scenario
from kit.evaluate.validate import validate
from tests.conftest import ROOT
from tests.integration.adversary import ADVERSARIAL, not_caught
from tests.integration.conftest import traversable_tmp

FIXTURE = ROOT / "tests" / "fixtures" / "dynamodb-orders"
CASES = {"wildcard-via-table-policy", "table-name-refused"}
tmp_path = traversable_tmp("kit-dynamodb-adv-")


def test_dynamodb_attacks_are_caught(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(scenario.ENV_ROOTS, str(FIXTURE))  # not_caught loads it by name
    orders = scenario.load("dynamodb-orders")
    rows = validate(orders, tmp_path, jobs=2, root=ADVERSARIAL, golden=False, only=CASES)
    assert {row.subject for row in rows} == CASES
    assert not_caught("dynamodb-orders", rows) == {}
