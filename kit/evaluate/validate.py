"""The kill matrix: the golden passes under every fault, each variant is killed for the
right reason (exactly its named invariants fail, the rest pass; an error is never a kill)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from kit.errors import InputError
from kit.evaluate.matrix import Golden, Matrix, Row, Subject, VariantOf, _Sandboxes, execute
from kit.run.result import RunResult
from kit.scenario import Scenario
from kit.variants import Variant, load_all


def uncovered(scenario: Scenario, variants: list[Variant]) -> list[str]:
    """The scenario's invariants that no variant is meant to fail (only unit cases show
    that they can fail)."""
    killed = {i for v in variants for i in v.must_fail}
    return [i for i in scenario.invariants if i not in killed]


def covering_sample(variants: list[Variant]) -> list[str]:
    """A small set of defects whose named invariants, together, cover every invariant any
    defect names: greedy, by most invariants not yet covered, ties by name (deterministic)."""
    defects = sorted((v for v in variants if not v.must_pass), key=lambda v: v.name)
    left = {i for v in defects for i in v.must_fail}
    chosen: list[str] = []
    while left:
        best = max(defects, key=lambda v: (len(left & set(v.must_fail)), -defects.index(v)))
        chosen.append(best.name)
        left -= set(best.must_fail)
    return chosen


def plan_rows(scenario: Scenario, variants: list[Variant], golden: bool = True,
              sample: bool = False) -> list[Row]:
    """The golden under each fault, each correct alternative under its faults, then each
    defect under its own fault."""
    rows = [Row("golden", fault, ()) for fault in scenario.faults] if golden else []
    chosen = set(covering_sample(variants)) if sample else None
    for v in variants:
        if v.must_pass:
            faults = list(v.faults or scenario.faults)
            # A sample runs each alternative once, under its first fault that is one.
            faults = [next((f for f in faults if f != "none"), faults[0])] if sample else faults
            rows += [Row(v.name, fault, ()) for fault in faults]
    rows += [Row(v.name, v.fault, v.must_fail) for v in variants
             if not v.must_pass and v.fault is not None
             and (chosen is None or v.name in chosen)]
    return rows


def validate(scenario: Scenario, out: Path, *, repeat: int = 1, jobs: int = 1, seed: int = 1,
             only: set[str] | None = None, root: Path | None = None, golden: bool = True,
             sample: bool = False, emulator: str = "moto", emulator_url: str | None = None,
             executor: str = "local", address: str | None = None,
             progress: Callable[[Row, RunResult], None] = lambda row, run: None) -> list[Row]:
    """Run the matrix (`repeat` seeds per row, `jobs` isolated sandboxes in parallel);
    `root` holds the variants (default: the scenario's variants/; tests/adversarial
    reuses the same machinery); `sample` runs only a covering sample of the defects and
    each alternative once (the test suite's tier, `covering_sample`); `emulator` and
    `emulator_url` choose the sandboxes' emulator (kit/sandbox/emulator.py); `executor`
    "ray" runs each on a Ray actor, of a local cluster or the one at `address`
    (kit/evaluate/cluster.py)."""
    variants = {v.name: v for v in load_all(scenario, root)}
    rows = _select_rows(scenario, variants, only, root, golden, sample)
    subjects: dict[str, Subject] = {"golden": Golden(),
                                    **{name: VariantOf(v) for name, v in variants.items()}}
    matrix = Matrix(scenario, subjects, out, _Sandboxes(emulator, emulator_url), progress)
    execute(matrix, [(row, seed + k) for row in rows for k in range(repeat)], jobs,
            executor, address)
    return rows


def _select_rows(scenario: Scenario, variants: dict[str, Variant], only: set[str] | None,
                 root: Path | None, golden: bool, sample: bool) -> list[Row]:
    """The rows of the matrix that `only` asks for; an unknown row is an input error."""
    if root is None and not any(not v.must_pass for v in variants.values()):
        raise InputError(f"{scenario.variants_dir}: no one-defect variant: a kill matrix "
                         "without one proves nothing; add <defect>/variant.yaml and "
                         "change.patch (see kit/variants.py)")
    unknown = sorted((only or set()) - {"golden", *variants})
    if unknown:
        raise InputError(f"unknown row {unknown[0]!r} for {scenario.name}; known: "
                         + ", ".join(["golden", *variants]))
    return [r for r in plan_rows(scenario, list(variants.values()), golden, sample)
            if only is None or r.subject in only]
