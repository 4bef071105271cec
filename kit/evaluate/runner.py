"""One solution's runs: every fault and seed of a plan, in one sandbox or on a pool of them
(`kit eval`'s runner; `kit tasks grade` and the RL environment grade through it too).
`--cross-check` runs the same plan on both emulators (kit/evaluate/crosscheck.py)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from kit.evaluate.matrix import run_solution
from kit.run.pipeline import run_once
from kit.run.result import RunResult
from kit.run.sandbox import Sandbox
from kit.scenario import Scenario

Progress = Callable[[str, "RunResult | None"], None]  # (label, finished run or None)


@dataclass(frozen=True)
class Plan:
    """What to run: a solution under some faults and seeds, and where runs go."""

    scenario: Scenario
    solution: Path
    faults: list[str]
    seeds: list[int]
    out: Path
    shown: str | None = None  # the path runs name (the given one, when `solution` is its
    # intake snapshot: kit/intake/snapshot.py)


def run_all(plan: Plan, emulator: str, url: str | None, progress: Progress, *,
            jobs: int = 1, executor: str = "local", address: str | None = None
            ) -> list[RunResult]:
    """Every fault and seed of the plan in one sandbox of `emulator`, or on `jobs` workers
    of `executor`, each with its own sandbox (kit/evaluate/matrix.py)."""
    if jobs > 1 or executor != "local":
        return named(plan, run_solution(
            plan.scenario, plan.solution, plan.faults, plan.seeds, plan.out, emulator,
            url if emulator == "localstack" else None, jobs=jobs, executor=executor,
            address=address,
            progress=lambda run: progress(f"{run.fault} (seed {run.seed})", run)))
    with sandbox_of(emulator, url) as box:
        return named(plan, each_run(plan, box, plan.out, progress))


def named(plan: Plan, runs: list[RunResult]) -> list[RunResult]:
    """The runs, each naming the solution as the plan shows it."""
    for run in runs:
        run.solution = plan.shown or run.solution
    return runs


def sandbox_of(emulator: str, url: str | None) -> Sandbox:
    """A sandbox of `emulator` (`url`: a running LocalStack's, if given)."""
    return Sandbox(provider=True, emulator=emulator,
                   emulator_url=url if emulator == "localstack" else None)


def each_run(plan: Plan, sandbox: Sandbox, out: Path, progress: Progress, label: str = ""
             ) -> list[RunResult]:
    """The plan's runs one after another in `sandbox`, each in out/<fault>-seed<n>."""
    results = []
    for fault in plan.faults:
        for seed in plan.seeds:
            progress(f"{label}fault {fault}, seed {seed}", None)
            results.append(run_once(plan.scenario, plan.solution, fault, seed,
                                    out / f"{fault}-seed{seed}", sandbox))
            progress(f"{label}{fault} (seed {seed})", results[-1])
    return results
