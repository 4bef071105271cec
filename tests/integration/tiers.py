"""Which rows of a scenario's kill matrix `make test` runs (the quick tier) and which it
leaves to `make validate` (marked slow): each defect of the covering sample under its
fault, so that every invariant a defect names is killed once; the golden without a fault
and under each fault no sampled defect runs under, so that every fault runs once. The
golden under the other faults and each correct alternative are the slow tier's (and the
full matrix's, `kit validate`)."""

from __future__ import annotations

from kit.scenario import Scenario
from kit.validate import Row, plan_rows
from kit.variants import Variant, load_all


def tiers(scenario: Scenario, variants: list[Variant] | None = None
          ) -> tuple[list[Row], list[Row]]:
    """The scenario's quick rows and its slow ones: together, `kit validate --sample`'s."""
    sample = plan_rows(scenario, load_all(scenario) if variants is None else variants,
                       golden=True, sample=True)
    exercised = {row.fault for row in sample if row.expected}
    quick, slow = [], []
    for row in sample:
        keep = bool(row.expected) or (row.subject == "golden"
                                      and (row.fault == "none" or row.fault not in exercised))
        (quick if keep else slow).append(row)
    return quick, slow


def gaps(scenario: Scenario, variants: list[Variant], quick: list[Row]) -> list[str]:
    """What a quick tier misses: an invariant some defect names that no quick row kills,
    a fault no quick row runs under, a golden without its run under no fault."""
    killed = {i for row in quick for i in row.expected}
    named = {i for v in variants if not v.must_pass for i in v.must_fail}
    run = {row.fault for row in quick}
    missing = [f"invariant {i} killed by no quick row" for i in sorted(named - killed)]
    missing += [f"fault {f} run by no quick row" for f in scenario.faults if f not in run]
    if not any(row.subject == "golden" and row.fault == "none" for row in quick):
        missing.append("no golden row under fault none")
    return missing
