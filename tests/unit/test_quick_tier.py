"""The quick tier of each shipped scenario (tests/integration/tiers.py) kills every
invariant a defect names and runs every fault, and with the slow tier makes up exactly
`kit validate --sample`'s rows."""

from __future__ import annotations

import pytest

from kit import scenario
from kit.validate import plan_rows
from kit.variants import load_all
from tests.integration.tiers import gaps, tiers

SHIPPED = [name for name in scenario.known() if scenario.load(name).root == scenario.ROOT]


@pytest.mark.parametrize("name", SHIPPED)
def test_the_quick_tier_covers_every_named_invariant_and_every_fault(name: str) -> None:
    sc = scenario.load(name)
    variants = load_all(sc)
    quick, slow = tiers(sc, variants)
    assert gaps(sc, variants, quick) == []
    sample = plan_rows(sc, variants, golden=True, sample=True)
    assert sorted((r.subject, r.fault) for r in quick + slow) == sorted(
        (r.subject, r.fault) for r in sample)
    assert len(quick) < len(sample)
    assert all(r.subject == "golden" or not r.expected for r in slow)  # no defect is slow


@pytest.mark.parametrize("name", SHIPPED)
def test_a_quick_tier_without_a_row_has_a_gap(name: str) -> None:
    sc = scenario.load(name)
    variants = load_all(sc)
    quick, _ = tiers(sc, variants)
    for k, row in enumerate(quick):  # each quick row is needed: without it, a gap
        assert gaps(sc, variants, quick[:k] + quick[k + 1:]), f"{row.subject}/{row.fault}"
