"""`kit mutate`: generate a solution's mutants, set aside the reviewed equivalents, judge the
rest (static first, then runs) and score: killed / (mutants - equivalents)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from kit.errors import InputError
from kit.evaluate.matrix import Row
from kit.mutate import equivalents, generate, reach
from kit.mutate import reuse as reused
from kit.mutate.run import Judged, faults_for, judge_runs, judge_static, planned
from kit.run.result import RunResult
from kit.scenario import Scenario


@dataclass
class Analysis:
    """Every mutant's verdict and the score."""

    scenario: str
    solution: str
    seed: int
    all_faults: bool
    judged: list[Judged]
    chosen: tuple[str, ...] = ()  # --fault: every mutant runs under these
    escalate: int | None = None  # a survivor's further faults at most (None: every fault)

    def count(self, status: str) -> int:
        """How many mutants have this status."""
        return sum(j.status == status for j in self.judged)

    @property
    def score(self) -> float | None:
        """killed / (mutants - equivalents); None when every mutant is equivalent."""
        real = len(self.judged) - self.count("equivalent")
        return self.count("killed") / real if real else None

    def to_dict(self) -> dict[str, object]:
        """mutate.json."""
        return {"scenario": self.scenario, "solution": self.solution, "seed": self.seed,
                "all_faults": self.all_faults, "faults": list(self.chosen),
                "escalate": "all" if self.escalate is None else self.escalate,
                "score": self.score,
                "counts": {s: self.count(s) for s in ("killed", "survived", "equivalent",
                                                      "error")},
                "mutants": [j.to_dict() for j in self.judged]}


def analyse(scenario: Scenario, solution: Path, out: Path, *, seed: int = 1,
            all_faults: bool = False, jobs: int = 1, only: list[str] | None = None,
            emulator: str = "moto", reuse: list[Path] | None = None,
            chosen: tuple[str, ...] = (), escalate: int | None = None,
            executor: str = "local", address: str | None = None,
            progress: Callable[[Row, RunResult], None] = lambda row, run: None) -> Analysis:
    """Mutate `solution` and judge every mutant (`only`: ids or id prefixes to judge;
    `reuse`: earlier mutate.json files or interrupted output directories whose verdicts of
    unchanged mutants carry over, a later one's over an earlier one's; `chosen`: the faults
    every mutant runs under instead of the sampled one; `escalate`: how many more faults a
    survivor meets at most, None for every one; `executor` and `address`: where the runs
    execute, kit/evaluate/matrix.py)."""
    unknown = sorted(set(chosen) - set(scenario.faults))
    if unknown:
        raise InputError(f"--fault {', '.join(unknown)}: no such fault in {scenario.name}'s "
                         f"scenario.yaml (faults: {', '.join(sorted(scenario.faults))})")
    mutants = generate.mutants(solution)
    listed = _equivalents(scenario, solution, {m.id for m in mutants})
    if only:
        # An id names its mutant alone (`...:11:1` is not also `...:11:1000`'s prefix).
        ids = {m.id for m in mutants}
        picked = [m for m in mutants
                  if any(m.id == o or (o not in ids and m.id.startswith(o)) for o in only)]
        if not picked:
            raise InputError(f"--only {', '.join(only)}: matches no mutant of {solution} "
                             f"(ids look like {mutants[0].id if mutants else 'none'})")
        mutants = picked
    judged = [Judged(m) for m in mutants]
    for j in judged:
        if j.mutant.id in listed:
            j.status, j.stage, j.reason = "equivalent", "listed", listed[j.mutant.id]
    undecided = [j for j in judged if j.status != "equivalent"]
    earlier: dict[str, dict[str, object]] = {}
    for path in reuse or []:
        earlier |= reused.load(path, [j.mutant.id for j in undecided])
    reached = None
    if not (all_faults or chosen) and any(j.mutant.file.endswith(".py") for j in undecided):
        reached = _reach(scenario, solution, out, reuse or [], seed=seed, jobs=jobs,
                         emulator=emulator)
    reused.apply(undecided, earlier,
                 lambda j: planned(scenario, j.mutant, seed, all_faults, chosen, reached,
                                   escalate),
                 lambda j: faults_for(scenario, j.mutant, seed, all_faults, chosen, reached))
    judge_static(scenario, solution, undecided)
    judge_runs(scenario, solution, undecided, out, seed=seed, all_faults=all_faults,
               jobs=jobs, emulator=emulator, chosen=chosen, reached=reached,
               escalate=escalate, executor=executor, address=address, progress=progress)
    return Analysis(scenario.name, str(solution), seed, all_faults, judged, chosen, escalate)


def _reach(scenario: Scenario, solution: Path, out: Path, reuse: list[Path], *, seed: int,
           jobs: int, emulator: str) -> reach.Reach | None:
    """What each fault's run of the solution executes of its worker code: the latest
    reused directory's (its reach.json, kept in `out` too), else measured now."""
    for path in reversed(reuse):
        found = reach.load(path if path.is_dir() else path.parent)
        if found is not None:
            reach.save(found, out)
            return found
    return reach.measure(scenario, solution, out, seed=seed, jobs=jobs, emulator=emulator)


def _equivalents(scenario: Scenario, solution: Path, ids: set[str]) -> dict[str, str]:
    """The scenario's listed equivalents: they are about its golden, so only for it."""
    path = scenario.directory / equivalents.FILE
    if solution.resolve() != scenario.golden.resolve():
        return {}
    return equivalents.load(path, ids)
