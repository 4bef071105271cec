"""The quick tier of the shipped scenarios (tests/integration/tiers.py) kills every
invariant a defect names in each scenario (one judged before the workload: in one scenario
of the suite; one judged on the history: in one scenario of its workload kind), runs each
fault's machinery once across them, and with the slow tier makes up exactly `kit validate
--sample`'s rows."""

from __future__ import annotations

import pytest

from kit import scenario
from kit.faults import FAULTS
from kit.variants import load_all
from tests.integration.tiers import (
    Kill,
    Machinery,
    driven_alone,
    gaps,
    kill,
    kills,
    machinery,
    sample,
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


def _killed_elsewhere(name: str, quick: dict[str, list]) -> set[Kill]:
    """What the other scenarios' quick defect rows kill."""
    return {k for other, rows in quick.items() if other != name
            for row in rows for k in kills(LOADED[other], row)}


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
    # A slow defect kills only what quick rows of the suite kill, counted as `kill` counts.
    killed = {k for n, rows in quick.items() for row in rows for k in kills(LOADED[n], row)}
    for row in slow:
        assert row.subject == "golden" or kills(sc, row) <= killed, row.subject


def test_a_defect_is_slow_only_where_other_quick_rows_kill_what_it_kills() -> None:
    quick = {n: q for n, (q, _) in suite(SHIPPED).items()}
    slow_defects = [(name, row) for name, (_, slow) in suite(SHIPPED).items()
                    for row in slow if row.expected]
    assert slow_defects  # the shipped suite has some (else this test shows nothing)
    for name, row in slow_defects:
        assert kills(LOADED[name], row) <= _killed_elsewhere(name, quick) | {
            k for r in quick[name] for k in kills(LOADED[name], r)}, (name, row.subject)
        # Without the other scenarios (nothing killed elsewhere) a defect of the covering
        # sample is quick: never dropped from a scenario tested alone.
        assert row.subject in {r.subject for r in tiers(LOADED[name])[0]}, (name, row.subject)


def test_a_history_invariant_counts_within_its_workload_kind_only() -> None:
    queue, drill = LOADED["order-pipeline"], LOADED["rds-recovery"]
    assert (queue.workload.kind, drill.workload.kind) == ("queue", "drill")
    # Judged on the history: a queue run's kill is not a drill's.
    assert kill(queue, "recovery.rpo") != kill(drill, "recovery.rpo")
    # Judged before the workload (the deploy, the configuration): one kill for every kind.
    for invariant in ("deploy.applies", "iam.least_privilege"):
        assert kill(queue, invariant) == kill(drill, invariant)
    # A scenario's own checker counts in its scenario only.
    own = next(i for i in LOADED["fifo-ledger"].invariants if i.startswith("ledger."))
    assert kill(LOADED["fifo-ledger"], own)[1] == "scenario fifo-ledger"


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


def test_a_golden_under_a_fault_driven_alone_is_slow_and_under_any_other_is_not() -> None:
    alone = driven_alone()
    assert alone and alone <= set(FAULTS)  # test_iam_faults.py's kinds, each a fault kind
    assert "iam_deny" not in alone  # driven by no test of its own: fifo-ledger's row runs it
    goldens = {(name, row.fault): row in quick for name, (quick, slow) in suite(SHIPPED).items()
               for row in quick + slow if row.subject == "golden" and row.fault != "none"}
    for (name, fault), quick in goldens.items():
        if LOADED[name].faults[fault].kind in alone:
            assert not quick, (name, fault)
    assert goldens[("fifo-ledger", "iam_revoke")]
