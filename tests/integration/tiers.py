"""Which rows of a scenario's kill matrix `make test` runs (the quick tier) and which it
leaves to `make validate` (marked slow): each defect of the covering sample under its
fault, so that every invariant a defect names is killed once per scenario; the golden
without a fault; and the golden under a fault only where no quick row of the suite runs
that fault's machinery yet (`machinery`: its kind and what it targets), so that each is
run once across the scenarios, however many there are. A defect killed only for static
invariants (judged from the deployed configuration alone: kit/checks/invariants.py) that a
quick row of the suite already kills is the slow tier's too. The golden under the other
faults and each correct alternative are the slow tier's (and the full matrix's, `kit
validate`).

Why once across the scenarios proves the same: a fault kind is one module of kit/faults/
whatever the scenario; the workload's gate (workload.fault_injected) makes every run it is
injected in show that it was, and a defect killed for exactly its named invariants shows
that the kit's fault harmed nothing else. That the golden of each scenario survives each
of its faults is the golden's property, which `kit validate` (every row) establishes.
Likewise a static invariant is one checker of kit/checks/ whatever the scenario, reading
the configuration that the observe stage reads the same way for every workload kind
(kit/run/observe.py: IAM, DB instances, the RDS configuration); that each scenario's own
defects are killed for it is `kit validate`'s.
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


def static_kills(scenario: Scenario, row: Row) -> set[str]:
    """The static invariants a defect row kills (judged from the configuration alone)."""
    return {i for i in row.expected if scenario.table[i].static}


def _needed_defect(scenario: Scenario, row: Row, killed: set[str]) -> bool:
    """A defect row is quick unless every invariant it kills is static and killed already."""
    return static_kills(scenario, row) != set(row.expected) or not set(row.expected) <= killed


def tiers(scenario: Scenario, variants: list[Variant] | None = None,
          covered: Iterable[Machinery] = (), killed: Iterable[str] = ()
          ) -> tuple[list[Row], list[Row]]:
    """The scenario's quick rows and its slow ones: together, `kit validate --sample`'s.
    `covered`: the fault machinery quick rows of other scenarios already run; `killed`: the
    static invariants their defects already kill."""
    rows = sample(scenario, variants)
    run = set(covered) | {machinery(scenario, row.fault) for row in rows if row.expected}
    done = set(killed)
    quick, slow = [], []
    for row in rows:
        if row.expected:
            keep = _needed_defect(scenario, row, done)
            done |= static_kills(scenario, row) if keep else set()
        else:
            keep = row.subject == "golden" and (
                row.fault == "none" or machinery(scenario, row.fault) not in run)
            run |= {machinery(scenario, row.fault)} if keep else set()
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
    by a golden again; a static invariant that a quick defect of the suite kills is not
    killed by a static-only defect again."""
    covered = defect_machinery(names)
    killed: set[str] = set()
    found = {}
    for name in names:
        sc = scenarios.load(name)
        found[name] = tiers(sc, covered=covered, killed=killed)
        covered |= {machinery(sc, row.fault) for row in found[name][0]}
        killed |= {i for row in found[name][0] for i in static_kills(sc, row)}
    return _pruned(found)


def _pruned(found: dict[str, tuple[list[Row], list[Row]]]
            ) -> dict[str, tuple[list[Row], list[Row]]]:
    """The suite without the static-only defect rows whose invariants the suite's other
    quick rows kill (a later scenario's row may kill two static invariants an earlier one
    killed one by one): each row left is needed."""
    loaded = {name: scenarios.load(name) for name in found}
    out = {name: (list(quick), list(slow)) for name, (quick, slow) in found.items()}
    for name, (quick, slow) in out.items():
        for row in list(quick):
            kills = static_kills(loaded[name], row)
            if not row.expected or kills != set(row.expected):
                continue
            others = {i for other, (rows, _) in out.items() for r in rows
                      if r is not row for i in static_kills(loaded[other], r)}
            if kills <= others:
                quick.remove(row)
                slow.append(row)
    return out


def gaps(scenario: Scenario, variants: list[Variant], quick: list[Row],
         elsewhere: Iterable[Machinery] = (), killed_elsewhere: Iterable[str] = ()
         ) -> list[str]:
    """What a quick tier misses: an invariant some defect names that no quick row kills
    (nor, for a static one, another scenario's: `killed_elsewhere`), a fault whose
    machinery neither a quick row nor `elsewhere` (other scenarios' quick rows) runs, a
    golden without its run under no fault."""
    killed = {i for row in quick for i in row.expected} | {
        i for i in killed_elsewhere if i in scenario.table and scenario.table[i].static}
    named = {i for v in variants if not v.must_pass for i in v.must_fail}
    run = set(elsewhere) | {machinery(scenario, row.fault) for row in quick}
    missing = [f"invariant {i} killed by no quick row" for i in sorted(named - killed)]
    missing += [f"fault {f} ({'/'.join(machinery(scenario, f))}) run by no quick row"
                for f in scenario.faults if machinery(scenario, f) not in run]
    if not any(row.subject == "golden" and row.fault == "none" for row in quick):
        missing.append("no golden row under fault none")
    return missing
