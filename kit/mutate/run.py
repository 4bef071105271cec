"""Judging mutants like variants, cheap first: the static checks of `kit check --static`
(the gate and the policy lint: no emulator run), then a run of each mutant left under a
fault drawn from the seed (or under every fault), through kit/evaluate/matrix.py's runner (the kill
matrix's sandboxes and executors) and kit/run/'s pipeline. A mutant is killed when an
invariant fails (or a static finding the solution has not appears); it survives with
reward 1.00. A worker-code mutant's fault is drawn among those that reach the code it
changes (kit/mutate/reach.py). A mutant that survives its drawn fault is judged again under
the faults it has not met (escalation, up to a budget), so that a survivor is one no fault
of the budget kills rather than a sampling miss."""

from __future__ import annotations

import random
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from kit.ci import static
from kit.evaluate.matrix import Matrix, Row, Subject, _Sandboxes, execute
from kit.mutate import reach
from kit.mutate.apply import materialize
from kit.mutate.mutant import Mutant
from kit.mutate.reach import Reach
from kit.run.result import RunResult
from kit.scenario import Scenario

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


def faults_for(scenario: Scenario, mutant: Mutant, seed: int, all_faults: bool,
               chosen: tuple[str, ...] = (), reached: Reach | None = None) -> tuple[str, ...]:
    """The faults a mutant runs under: every fault, the ones chosen (`--fault`), or the
    one drawn for it (among those whose run of the solution executed the code it changes,
    when `reached` says: kit/mutate/reach.py)."""
    if all_faults:
        return tuple(sorted(scenario.faults))
    return chosen or (reach.drawn(scenario, mutant, seed, reached),)


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


@dataclass(frozen=True)
class MutantOf:
    """A mutant: the solution with the mutant's patch (a subject of kit/evaluate/matrix.py)."""

    base: Path
    mutant: Mutant

    def solution(self, scenario: Scenario, target: Path) -> Path:
        """The solution copied into `target`, the mutant's patch applied."""
        return materialize(self.base, self.mutant, target)


def escalation(scenario: Scenario, mutant: Mutant, seed: int, tried: tuple[str, ...],
               reached: Reach | None = None) -> tuple[str, ...]:
    """The faults a survivor meets next, in order: those that reach the code it changes
    first (worker code, `reached`), then the others, each group shuffled from the seed and
    its id (stable)."""
    rest = [f for f in sorted(scenario.faults) if f not in tried]
    near = set(reach.reaching(scenario, mutant, reached)) \
        if reached and mutant.file.endswith(".py") else set()
    rng = random.Random(f"{seed}:{mutant.id}:escalate")
    groups = [[f for f in rest if f in near], [f for f in rest if f not in near]]
    for group in groups:
        rng.shuffle(group)
    return tuple(groups[0] + groups[1])


def planned(scenario: Scenario, mutant: Mutant, seed: int, all_faults: bool,
            chosen: tuple[str, ...] = (), reached: Reach | None = None,
            escalate: int | None = None) -> tuple[str, ...]:
    """Every fault a mutant may run under, in order: its first faults (`faults_for`), then
    at most `escalate` more while it survives (None: every other fault)."""
    first = faults_for(scenario, mutant, seed, all_faults, chosen, reached)
    more = escalation(scenario, mutant, seed, first, reached)
    return first + more[:escalate]


def judge_runs(scenario: Scenario, solution: Path, judged: list[Judged], out: Path, *,
               seed: int, all_faults: bool, jobs: int, emulator: str = "moto",
               chosen: tuple[str, ...] = (), reached: Reach | None = None,
               escalate: int | None = None, executor: str = "local",
               address: str | None = None,
               progress: Callable[[Row, RunResult], None] = lambda row, run: None) -> None:
    """Run every mutant not yet decided under its first faults, on `executor`
    (kit/evaluate/matrix.py); then each survivor under its next faults, round by round, until it is
    killed or has met every fault `planned` gives it."""
    left = [j for j in judged if j.status == "survived" and not j.stage]
    plan = {j.mutant.id: planned(scenario, j.mutant, seed, all_faults, chosen, reached,
                                 escalate) for j in left}
    rows: dict[str, list[Row]] = {j.mutant.id: [] for j in left}
    subjects: dict[str, Subject] = {j.mutant.id: MutantOf(solution, j.mutant) for j in left}
    batch = {j.mutant.id: faults_for(scenario, j.mutant, seed, all_faults, chosen, reached)
             for j in left}
    while batch:
        new = {m: [Row(m, f, ()) for f in faults] for m, faults in batch.items()}
        matrix = Matrix(scenario, subjects, out, _Sandboxes(emulator, None), progress)
        execute(matrix, [(row, seed) for rs in new.values() for row in rs], jobs, executor,
                address)
        for m, rs in new.items():
            rows[m] += rs
        for j in (j for j in left if j.mutant.id in new):
            _verdict(scenario, j, rows[j.mutant.id])
        alive = [j.mutant.id for j in left
                 if j.status == "survived" and len(rows[j.mutant.id]) < len(plan[j.mutant.id])]
        # Each round fills the jobs: a lone survivor meets `jobs` faults at once.
        width = max(1, jobs // len(alive)) if alive else 0
        batch = {m: plan[m][len(rows[m]):len(rows[m]) + width] for m in alive}


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
