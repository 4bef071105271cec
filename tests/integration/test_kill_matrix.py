"""The kill matrix of order-pipeline: golden passes, every variant killed for its reason."""

from __future__ import annotations

from pathlib import Path

import pytest

from kit import checks, scenario
from kit.checks.result import judged
from kit.validate import validate

SCENARIO = scenario.load("order-pipeline")


@pytest.mark.timeout(2400)
def test_every_variant_is_killed_by_its_named_invariants(tmp_path: Path) -> None:
    # The golden rows are run (for five seeds) by test_order_pipeline.py.
    rows = validate(SCENARIO, tmp_path, jobs=2, golden=False)
    assert len(rows) >= 10
    bad = {f"{row.subject}/{row.fault}": row.statuses for row in rows if not row.ok}
    assert not bad, bad


def test_a_checker_broken_on_purpose_lets_its_variants_survive(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # delivery.no_loss made to always pass: the variants that lose orders must now be
    # reported, by name, as not killed for the right reason.
    monkeypatch.setitem(checks.REGISTRY, "delivery.no_loss",
                        lambda history, params: judged("delivery.no_loss", True, "broken", {},
                                                       {}))
    names = {"delete-before-commit", "swallow-db-errors"}
    rows = validate(SCENARIO, tmp_path, only=names)
    assert {row.subject for row in rows if not row.ok} == names
