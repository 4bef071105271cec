"""Which rows of a scenario's kill matrix `make test` runs (the quick tier) and which it
leaves to `make validate` (marked slow): each defect of the covering sample under its
fault, so that every invariant a defect names is killed once per scenario; the golden
without a fault; and the golden under a fault only where no quick row of the suite runs
that fault's machinery yet (`machinery`: its kind and what it targets), so that each is
run once across the scenarios, however many there are. The golden under the other faults
and each correct alternative are the slow tier's (and the full matrix's, `kit validate`).

Why once across the scenarios proves the same: a fault kind is one module of kit/faults/
whatever the scenario; the workload's gate (workload.fault_injected) makes every run it is
injected in show that it was, and a defect killed for exactly its named invariants shows
that the kit's fault harmed nothing else. That the golden of each scenario survives each
of its faults is the golden's property, which `kit validate` (every row) establishes.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable

from kit import scenario as scenarios
from kit.scenario import Scenario
from kit.validate import Row, plan_rows
from kit.variants import Variant, load_all

Machinery = tuple[str, str]


def machinery(scenario: Scenario, fault: str) -> Machinery:
    """What a fault exercises in the kit: its kind, and the kind of binding it targets
    (a database proxy or the AWS endpoint's; a queue's, a key's or a bucket's policy)."""
    spec = scenario.faults[fault]
    target = spec.target.split(".", 1)[0] if spec.target else ""
    return spec.kind, target


def sample(scenario: Scenario, variants: list[Variant] | None = None) -> list[Row]:
    """`kit validate --sample`'s rows: what the quick and slow tiers split between them."""
    return plan_rows(scenario, load_all(scenario) if variants is None else variants,
                     golden=True, sample=True)


def tiers(scenario: Scenario, variants: list[Variant] | None = None,
          covered: Iterable[Machinery] = ()) -> tuple[list[Row], list[Row]]:
    """The scenario's quick rows and its slow ones: together, `kit validate --sample`'s.
    `covered`: the fault machinery quick rows of other scenarios already run."""
    rows = sample(scenario, variants)
    run = set(covered) | {machinery(scenario, row.fault) for row in rows if row.expected}
    quick, slow = [], []
    for row in rows:
        keep = bool(row.expected) or (row.subject == "golden" and (
            row.fault == "none" or machinery(scenario, row.fault) not in run))
        if keep and not row.expected:
            run.add(machinery(scenario, row.fault))
        (quick if keep else slow).append(row)
    return quick, slow


def defect_machinery(names: Iterable[str]) -> set[Machinery]:
    """The fault machinery the sampled defects of these scenarios run under."""
    return {machinery(sc, row.fault) for sc in map(scenarios.load, names)
            for row in sample(sc) if row.expected}


@functools.cache
def suite(names: tuple[str, ...]) -> dict[str, tuple[list[Row], list[Row]]]:
    """Each scenario's quick and slow rows, the scenarios taken in the order given: a fault's
    machinery that a defect of any of them runs, or the golden of an earlier one, is not run
    by a golden again."""
    covered = defect_machinery(names)
    found = {}
    for name in names:
        sc = scenarios.load(name)
        found[name] = tiers(sc, covered=covered)
        covered |= {machinery(sc, row.fault) for row in found[name][0]}
    return found


def gaps(scenario: Scenario, variants: list[Variant], quick: list[Row],
         elsewhere: Iterable[Machinery] = ()) -> list[str]:
    """What a quick tier misses: an invariant some defect names that no quick row kills,
    a fault whose machinery neither a quick row nor `elsewhere` (other scenarios' quick
    rows) runs, a golden without its run under no fault."""
    killed = {i for row in quick for i in row.expected}
    named = {i for v in variants if not v.must_pass for i in v.must_fail}
    run = set(elsewhere) | {machinery(scenario, row.fault) for row in quick}
    missing = [f"invariant {i} killed by no quick row" for i in sorted(named - killed)]
    missing += [f"fault {f} ({'/'.join(machinery(scenario, f))}) run by no quick row"
                for f in scenario.faults if machinery(scenario, f) not in run]
    if not any(row.subject == "golden" and row.fault == "none" for row in quick):
        missing.append("no golden row under fault none")
    return missing
