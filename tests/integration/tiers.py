"""Which rows of a scenario's kill matrix `make test` runs (the quick tier) and which it
leaves to `make validate` (marked slow): each defect of the covering sample under its
fault, unless what it kills a quick row of the suite kills already; the golden without a
fault; and the golden under a fault only where no quick row of the suite runs that fault's
machinery yet (`machinery`: its kind and what it targets), so that each is run once across
the scenarios, however many there are. The golden under the other faults, each correct
alternative and the defects left out are the slow tier's (and the full matrix's, `kit
validate`). A fault kind that an integration test of its own drives against the real
emulator and gateway (`driven_alone`: test_iam_faults.py makes each IAM mutation on its
targets, checks that its window denies and that its heal restores) has its machinery run
there: a golden under it is the scenario's property, the slow tier's.

What a defect kills is counted once across the scenarios (`Kill`): an invariant judged
before the workload (the source, the deploy, the deployed configuration: the stages of
kit/checks/invariants.py) once in the suite, one judged on the history once per workload
kind, a scenario's own checker in its scenario. Why once proves the same: a checker of
kit/checks/ is one function whatever the scenario, over what the run records the same way
for every scenario of a workload kind (the queue workload's ops and final state, the
drill's) and the deploy and configuration it reads the same way for every kind
(kit/run/deploy.py, kit/run/observe.py). Likewise a fault kind is one module of
kit/faults/ whatever the scenario; the workload's gate (workload.fault_injected) makes
every run it is injected in show that it was, and a defect killed for exactly its named
invariants shows that the kit's fault harmed nothing else. That each scenario's own
defects are killed for their reasons, and that its golden survives each of its faults, is
the scenario's property, which `kit validate` (every row) establishes; a scenario tested
alone (`tiers`) keeps every defect of its sample.
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Iterable
from pathlib import Path

from kit import scenario as scenarios
from kit.checks import INVARIANTS
from kit.evaluate.matrix import Row
from kit.evaluate.validate import plan_rows
from kit.scenario import Scenario
from kit.variants import Variant, load_all

Machinery = tuple[str, str]
Kill = tuple[str, str]  # (invariant, where it counts: see `kill`)
DRIVER = Path(__file__).with_name("test_iam_faults.py")
DRIVES = "_fault"  # its call that makes a fault: _fault(gateway, kind, target, params)


@functools.cache
def driven_alone() -> frozenset[str]:
    """The fault kinds DRIVER's tests make and judge by themselves (their DRIVES calls)."""
    calls = [node for node in ast.walk(ast.parse(DRIVER.read_text()))
             if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
             and node.func.id == DRIVES]
    return frozenset(call.args[1].value for call in calls if len(call.args) > 1
                     and isinstance(call.args[1], ast.Constant))


def run_elsewhere(scenario: Scenario, fault: str) -> bool:
    """Whether the fault's machinery is driven by a test of its own (`driven_alone`)."""
    return scenario.faults[fault].kind in driven_alone()


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


def kill(scenario: Scenario, invariant: str) -> Kill:
    """An invariant as counted across the scenarios: one judged on the workload's history
    within its scenario's workload kind, any other (the source, the deploy, the deployed
    configuration) whatever the scenario; a scenario's own checker within the scenario."""
    if invariant not in INVARIANTS:
        return invariant, f"scenario {scenario.name}"
    workload = scenario.table[invariant].stage == "workload"
    return invariant, scenario.workload.kind if workload else ""


def kills(scenario: Scenario, row: Row) -> set[Kill]:
    """What a defect row kills, as counted across the scenarios."""
    return {kill(scenario, i) for i in row.expected}


@functools.cache
def suite(names: tuple[str, ...]) -> dict[str, tuple[list[Row], list[Row]]]:
    """Each shipped scenario's quick and slow rows, the scenarios taken in the order given."""
    return split({name: scenarios.load(name) for name in names})


def split(loaded: dict[str, Scenario], variants: dict[str, list[Variant]] | None = None
          ) -> dict[str, tuple[list[Row], list[Row]]]:
    """Each scenario's quick and slow rows (its variants: `variants`, default its own): a
    defect whose kills the suite's other quick defects kill is slow; then a golden runs
    under a fault only where no quick row of the suite runs its machinery yet and no test
    of its own drives it."""
    rows = {name: sample(sc, (variants or {}).get(name)) for name, sc in loaded.items()}
    defects = _defects(loaded, rows)
    covered = {machinery(loaded[name], row.fault)
               for name, quick in defects.items() for row in quick}
    out = {}
    for name, sc in loaded.items():
        quick = []
        for row in rows[name]:
            if row.expected:
                keep = row in defects[name]
            else:
                keep = row.subject == "golden" and (row.fault == "none" or (
                    machinery(sc, row.fault) not in covered
                    and not run_elsewhere(sc, row.fault)))
                covered |= {machinery(sc, row.fault)} if keep else set()
            quick += [row] if keep else []
        out[name] = (quick, [row for row in rows[name] if row not in quick])
    return out


def _defects(loaded: dict[str, Scenario], rows: dict[str, list[Row]]) -> dict[str, list[Row]]:
    """The quick defect rows: in order, each that kills something no earlier one kills;
    then without each whose kills the others' cover (a later row may kill at once what
    earlier ones killed one by one): each row left is needed."""
    killed: set[Kill] = set()
    quick: dict[str, list[Row]] = {}
    for name, sc in loaded.items():
        quick[name] = []
        for row in rows[name]:
            if row.expected and not kills(sc, row) <= killed:
                quick[name].append(row)
                killed |= kills(sc, row)
    for name, sc in loaded.items():
        for row in list(quick[name]):
            others = {k for other, found in quick.items() for r in found if r is not row
                      for k in kills(loaded[other], r)}
            if kills(sc, row) <= others:
                quick[name].remove(row)
    return quick


def tiers(scenario: Scenario, variants: list[Variant] | None = None
          ) -> tuple[list[Row], list[Row]]:
    """A scenario's quick and slow rows tested alone (as a scenario outside this
    repository is): nothing is left to other scenarios."""
    found = split({scenario.name: scenario}, {scenario.name: variants} if variants else None)
    return found[scenario.name]


def gaps(scenario: Scenario, variants: list[Variant], quick: list[Row],
         elsewhere: Iterable[Machinery] = (), killed_elsewhere: Iterable[Kill] = ()
         ) -> list[str]:
    """What a quick tier misses: an invariant some defect names that neither a quick row
    nor, counted as `kills` counts, another scenario's (`killed_elsewhere`) kills; a fault
    whose machinery neither a quick row nor `elsewhere` (other scenarios' quick rows) runs,
    nor a test of its own (`driven_alone`); a golden without its run under no fault."""
    killed = {k for row in quick for k in kills(scenario, row)} | set(killed_elsewhere)
    named = {kill(scenario, i) for v in variants if not v.must_pass for i in v.must_fail}
    run = set(elsewhere) | {machinery(scenario, row.fault) for row in quick}
    missing = [f"invariant {i} killed by no quick row" for i, _ in sorted(named - killed)]
    missing += [f"fault {f} ({'/'.join(machinery(scenario, f))}) run by no quick row"
                for f in scenario.faults
                if machinery(scenario, f) not in run and not run_elsewhere(scenario, f)]
    if not any(row.subject == "golden" and row.fault == "none" for row in quick):
        missing.append("no golden row under fault none")
    return missing
