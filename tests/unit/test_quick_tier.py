"""The quick tier of the shipped scenarios (tests/integration/tiers.py) kills every
invariant a defect names in each scenario and runs each fault's machinery once across
them, and with the slow tier makes up exactly `kit validate --sample`'s rows."""

from __future__ import annotations

import pytest

from kit import scenario
from kit.variants import load_all
from tests.integration.tiers import Machinery, gaps, machinery, sample, suite, tiers

SHIPPED = tuple(name for name in scenario.known()
                if scenario.load(name).root == scenario.ROOT)
LOADED = {name: scenario.load(name) for name in SHIPPED}


def _elsewhere(name: str, quick: dict[str, list]) -> set[Machinery]:
    """The fault machinery the other scenarios' quick rows run."""
    return {machinery(LOADED[other], row.fault)
            for other, rows in quick.items() if other != name for row in rows}


@pytest.mark.parametrize("name", SHIPPED)
def test_the_quick_tier_covers_every_named_invariant_and_every_fault(name: str) -> None:
    sc = LOADED[name]
    variants = load_all(sc)
    quick = {n: q for n, (q, _) in suite(SHIPPED).items()}
    slow = suite(SHIPPED)[name][1]
    assert gaps(sc, variants, quick[name], _elsewhere(name, quick)) == []
    assert sorted((r.subject, r.fault) for r in quick[name] + slow) == sorted(
        (r.subject, r.fault) for r in sample(sc, variants))
    assert len(quick[name]) < len(sample(sc, variants))
    assert all(r.subject == "golden" or not r.expected for r in slow)  # no defect is slow


def test_each_fault_machinery_runs_in_one_golden_row_of_the_suite_at_most() -> None:
    seen: dict[Machinery, str] = {}
    for name, (quick, _) in suite(SHIPPED).items():
        sc = LOADED[name]
        for row in quick:
            if row.subject == "golden" and row.fault != "none":
                key = machinery(sc, row.fault)
                assert key not in seen, f"{name}/{row.fault} runs {key} again ({seen[key]})"
                seen[key] = f"{name}/{row.fault}"


def test_a_scenario_alone_runs_each_of_its_faults_machinery() -> None:
    # Without the others (as a scenario outside this repository is tested), nothing is left
    # to them: every fault of its own runs in its quick tier.
    for name in SHIPPED:
        sc = LOADED[name]
        quick, _ = tiers(sc)
        assert gaps(sc, load_all(sc), quick) == [], name


def test_a_quick_tier_without_a_row_has_a_gap() -> None:
    quick = {n: q for n, (q, _) in suite(SHIPPED).items()}
    loaded = {n: (sc, load_all(sc)) for n, sc in LOADED.items()}

    def suite_gaps(tier: dict[str, list]) -> list[str]:
        return [gap for n, (sc, variants) in loaded.items()
                for gap in gaps(sc, variants, tier[n], _elsewhere(n, tier))]

    assert suite_gaps(quick) == []
    for name in SHIPPED:  # each quick row is needed: without it, a gap in the suite
        for k, row in enumerate(quick[name]):
            without = quick | {name: quick[name][:k] + quick[name][k + 1:]}
            assert suite_gaps(without), f"{name}: {row.subject}/{row.fault}"
