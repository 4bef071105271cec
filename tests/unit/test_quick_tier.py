"""The quick tier of the shipped scenarios (tests/integration/tiers.py) kills every
invariant a defect names in each scenario (a static one: in one scenario of the suite) and
runs each fault's machinery once across them, and with the slow tier makes up exactly `kit
validate --sample`'s rows."""

from __future__ import annotations

import pytest

from kit import scenario
from kit.variants import load_all
from tests.integration.tiers import (
    Machinery,
    gaps,
    machinery,
    sample,
    static_kills,
    suite,
    tiers,
)

SHIPPED = tuple(name for name in scenario.known()
                if scenario.load(name).root == scenario.ROOT)
LOADED = {name: scenario.load(name) for name in SHIPPED}


def _elsewhere(name: str, quick: dict[str, list]) -> set[Machinery]:
    """The fault machinery the other scenarios' quick rows run."""
    return {machinery(LOADED[other], row.fault)
            for other, rows in quick.items() if other != name for row in rows}


def _killed_elsewhere(name: str, quick: dict[str, list]) -> set[str]:
    """The static invariants the other scenarios' quick defect rows kill."""
    return {i for other, rows in quick.items() if other != name
            for row in rows for i in static_kills(LOADED[other], row)}


@pytest.mark.parametrize("name", SHIPPED)
def test_the_quick_tier_covers_every_named_invariant_and_every_fault(name: str) -> None:
    sc = LOADED[name]
    variants = load_all(sc)
    quick = {n: q for n, (q, _) in suite(SHIPPED).items()}
    slow = suite(SHIPPED)[name][1]
    assert gaps(sc, variants, quick[name], _elsewhere(name, quick),
                _killed_elsewhere(name, quick)) == []
    assert sorted((r.subject, r.fault) for r in quick[name] + slow) == sorted(
        (r.subject, r.fault) for r in sample(sc, variants))
    assert len(quick[name]) < len(sample(sc, variants))
    # A slow defect kills only static invariants, each killed by a quick row of the suite.
    kills = {i for rows in quick.values() for row in rows for i in row.expected}
    for row in slow:
        assert row.subject == "golden" or (
            static_kills(sc, row) == set(row.expected) <= kills), row.subject


def test_a_static_defect_is_slow_only_where_another_scenario_kills_its_invariants() -> None:
    quick = {n: q for n, (q, _) in suite(SHIPPED).items()}
    slow_defects = [(name, row.subject) for name, (_, slow) in suite(SHIPPED).items()
                    for row in slow if row.expected]
    assert slow_defects  # the shipped suite has some (else this test shows nothing)
    for name, subject in slow_defects:
        row = next(r for r in sample(LOADED[name]) if r.subject == subject)
        assert set(row.expected) <= _killed_elsewhere(name, quick) | {
            i for r in quick[name] for i in r.expected}, (name, subject)
        # Without the other scenarios (nothing killed elsewhere) it is quick: never dropped
        # from a scenario tested alone.
        assert subject in {r.subject for r in tiers(LOADED[name])[0]}, (name, subject)


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
                for gap in gaps(sc, variants, tier[n], _elsewhere(n, tier),
                                _killed_elsewhere(n, tier))]

    assert suite_gaps(quick) == []
    for name in SHIPPED:  # each quick row is needed: without it, a gap in the suite
        for k, row in enumerate(quick[name]):
            without = quick | {name: quick[name][:k] + quick[name][k + 1:]}
            assert suite_gaps(without), f"{name}: {row.subject}/{row.fault}"
