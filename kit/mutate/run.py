"""Judging mutants like variants, cheap first: the static checks of `kit check --static`
(the gate and the policy lint: no emulator run), then a run of each mutant left under a
fault drawn from the seed (or under every fault), through kit/validate.py's sandboxes and
executor and kit/run/'s pipeline. A mutant is killed when an invariant fails (or a static
finding the solution has not appears); it survives with reward 1.00."""

from __future__ import annotations

import random
import tempfile
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from kit import interrupt
from kit.ci import static
from kit.mutate.apply import materialize
from kit.mutate.mutant import Mutant
from kit.run.pipeline import run_once
from kit.run.result import RunResult
from kit.scenario import Scenario
from kit.validate import Row, _run_all, _Sandboxes

STATUSES = ("killed", "survived", "equivalent", "error")


@dataclass
class Judged:
    """One mutant's verdict: status, what killed it (invariants or static checks), where."""

    mutant: Mutant
    status: str = "survived"
    stage: str = ""  # "static" or "run"
    killed_by: tuple[str, ...] = ()
    faults: tuple[str, ...] = ()
    reward: float | None = None
    reason: str = ""  # an equivalent's reviewed reason, or a run's error
    runs: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, object]:
        """The verdict as mutate.json records it."""
        return {**self.mutant.to_dict(), "status": self.status, "stage": self.stage,
                "killed_by": list(self.killed_by), "faults": list(self.faults),
                "reward": self.reward, "reason": self.reason, "runs": self.runs}


def sampled_fault(scenario: Scenario, mutant: Mutant, seed: int) -> str:
    """The fault a mutant runs under by default: drawn from the seed and its id (stable)."""
    return random.Random(f"{seed}:{mutant.id}").choice(sorted(scenario.faults))


def faults_for(scenario: Scenario, mutant: Mutant, seed: int, all_faults: bool,
               chosen: tuple[str, ...] = ()) -> tuple[str, ...]:
    """The faults a mutant runs under: every fault, the ones chosen (`--fault`: those that
    can reach the mutated code), or the one drawn for it."""
    if all_faults:
        return tuple(sorted(scenario.faults))
    return chosen or (sampled_fault(scenario, mutant, seed),)


def static_findings(scenario: Scenario, root: Path) -> set[tuple[str, str]]:
    """(check, what) of every static finding of a solution directory."""
    team = scenario.repository is not None
    found = static.check(root, scenario.toolchain.allowed_providers, scenario.modules_dir,
                         team=team, root_module=Path(scenario.terraform.dir) if team
                         else Path("."))
    return {(f.check, f.what) for f in found}


def judge_static(scenario: Scenario, solution: Path, judged: list[Judged]) -> None:
    """Kill the mutants with a static finding the solution itself does not have."""
    baseline = static_findings(scenario, solution)
    for j in (j for j in judged if not j.stage):
        with tempfile.TemporaryDirectory(prefix="kit-mutant-") as tmp:
            root = materialize(solution, j.mutant, Path(tmp) / "solution")
            new = static_findings(scenario, root) - baseline
        if new:
            j.status, j.stage = "killed", "static"
            j.killed_by = tuple(sorted({check for check, _ in new}))


@dataclass
class _Mutants:
    """What each run needs (the interface kit/validate.py's executor calls: `run`)."""

    scenario: Scenario
    solution: Path
    by_id: dict[str, Mutant]
    out: Path
    sandboxes: _Sandboxes
    progress: Callable[[Row, RunResult], None]
    lock: threading.Lock = field(default_factory=threading.Lock)

    def run(self, row: Row, run_seed: int) -> RunResult:
        """Run one mutant under one fault, in this thread's sandbox."""
        interrupt.checkpoint()
        run_dir = self.out / dir_name(row.subject) / f"{row.fault}-seed{run_seed}"
        with tempfile.TemporaryDirectory(prefix="kit-mutant-") as tmp:
            solution = materialize(self.solution, self.by_id[row.subject],
                                   Path(tmp) / "solution")
            result = run_once(self.scenario, solution, row.fault, run_seed, run_dir,
                              self.sandboxes.mine())
        with self.lock:
            row.runs.append(result)
        self.progress(row, result)
        return result


def judge_runs(scenario: Scenario, solution: Path, judged: list[Judged], out: Path, *,
               seed: int, all_faults: bool, jobs: int, emulator: str = "moto",
               chosen: tuple[str, ...] = (),
               progress: Callable[[Row, RunResult], None] = lambda row, run: None) -> None:
    """Run every mutant not yet decided, under its sampled fault (or every fault)."""
    left = [j for j in judged if j.status == "survived" and not j.stage]
    rows = {j.mutant.id: [Row(j.mutant.id, f, ())
                          for f in faults_for(scenario, j.mutant, seed, all_faults, chosen)]
            for j in left}
    matrix = _Mutants(scenario, solution, {j.mutant.id: j.mutant for j in left}, out,
                      _Sandboxes(emulator, None), progress)
    try:
        _run_all(matrix, [(row, seed) for rs in rows.values() for row in rs], jobs)
    finally:
        matrix.sandboxes.close()
    for j in left:
        _verdict(scenario, j, rows[j.mutant.id])


def _verdict(scenario: Scenario, j: Judged, rows: list[Row]) -> None:
    """A run mutant's status from its rows' runs."""
    runs = [r for row in rows for r in row.runs]
    j.stage, j.faults = "run", tuple(row.fault for row in rows)
    j.runs = [r.run_dir for r in runs]
    # A run in error judged nothing (the kit's fault): only the others' failures kill.
    errors = [r for r in runs if r.outcome == "error"]
    failed = sorted({i for r in runs if r not in errors
                     for i, v in r.results.items() if v.verdict == "fail"})
    rewards = [row.reward(scenario.reward) for row in rows]
    j.reward = min((x for x in rewards if x is not None), default=None)
    if failed:
        j.status, j.killed_by = "killed", tuple(failed)
    elif errors:
        j.status, j.reason = "error", errors[0].error or "a run ended in error"
    else:
        j.status = "survived"


def dir_name(mutant_id: str) -> str:
    """The directory of a mutant's runs (an id made a file name)."""
    return mutant_id.replace("/", "_").replace(":", "_")
