"""Many runs of one scenario, each (subject, fault, seed) in a sandbox of its own worker:
the runner that the kill matrix (`kit validate`), mutation analysis (`kit mutate`) and a
solution's faults (`kit eval`, the RL environment's grading) share.

A row's subject says how its solution is made (the golden, a variant, a mutant, a given
directory): a small picklable object, so that a Ray actor on another node makes the same
solution there (kit/evaluate/cluster.py). The executor is threads here (`local`) or Ray actors."""

from __future__ import annotations

import tempfile
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from kit import interrupt
from kit.deploy.hcl import not_copied
from kit.evaluate import cluster
from kit.reward import RewardSpec, reward
from kit.run.pipeline import run_once
from kit.run.result import RunResult
from kit.run.sandbox import Sandbox
from kit.scenario import Scenario
from kit.variants import Variant, materialize


@dataclass
class Row:
    """One line of the matrix: the golden under a fault, or a variant under its fault."""

    subject: str  # "golden" or the variant name
    fault: str
    expected: tuple[str, ...]  # invariants that must fail (empty for the golden)
    runs: list[RunResult] = field(default_factory=list)

    def status(self, run: RunResult) -> str:
        """pass/killed when it behaved as expected; survived/wrong/error otherwise."""
        if run.outcome == "error" or any(r.verdict == "error" for r in run.results.values()):
            return "error"
        failed = tuple(sorted(i for i, r in run.results.items() if r.verdict == "fail"))
        if not self.expected:
            return "pass" if not failed else "wrong"
        if failed == tuple(sorted(self.expected)):
            return "killed"
        return "survived" if not failed else "wrong"

    @property
    def statuses(self) -> list[str]:
        return [self.status(r) for r in self.runs]

    @property
    def ok(self) -> bool:
        want = "pass" if not self.expected else "killed"
        return bool(self.runs) and all(s == want for s in self.statuses)

    def reward(self, spec: RewardSpec) -> float | None:
        """The reward of this row's runs, as `kit eval` would compute it for them."""
        return reward(spec, [{"fault": r.fault, "seed": r.seed, "outcome": r.outcome,
                              "verdicts": {i: v.verdict for i, v in r.results.items()}}
                             for r in self.runs])["reward"]

    @property
    def flaky(self) -> bool:
        """The verdicts disagree across seeds."""
        return len({tuple(sorted((i, r.verdict) for i, r in run.results.items()))
                    for run in self.runs}) > 1


class Subject(Protocol):
    """How a row's solution is made, on whichever node runs it."""

    def solution(self, scenario: Scenario, target: Path) -> Path:
        """The solution directory: the golden, or one made in `target`."""


@dataclass(frozen=True)
class Golden:
    """The scenario's golden solution."""

    def solution(self, scenario: Scenario, target: Path) -> Path:
        """The golden, as it is."""
        return scenario.golden


@dataclass(frozen=True)
class VariantOf:
    """A one-defect variant: the golden with its patch."""

    variant: Variant

    def solution(self, scenario: Scenario, target: Path) -> Path:
        """The golden copied into `target`, the variant's patch applied."""
        return materialize(scenario, self.variant, target)


@dataclass(frozen=True)
class Given:
    """A solution directory the caller gives (`kit eval`, a task's workspace): the
    directory itself, or its files as an archive for a node that has no copy of it."""

    path: Path
    archive: bytes | None = None

    @classmethod
    def shipped(cls, path: Path) -> Given:
        """The directory with its files packed (what a copy of a solution leaves out, too)."""
        return cls(path, cluster.pack(path, not_copied))

    def solution(self, scenario: Scenario, target: Path) -> Path:
        """The directory, or its files unpacked into `target`."""
        if self.archive is None:
            return self.path
        cluster.unpack(self.archive, target)
        return target


class _Sandboxes:
    """One sandbox per worker thread, reused (reset) across that thread's runs."""

    def __init__(self, emulator: str, emulator_url: str | None) -> None:
        self.emulator = emulator
        self.emulator_url = emulator_url
        self._local = threading.local()
        self._all: list[Sandbox] = []
        self._lock = threading.Lock()

    def mine(self) -> Sandbox:
        """Return the calling thread's sandbox, started on its first call."""
        # It is created in that thread so its processes live exactly as long as the thread.
        if not hasattr(self._local, "sandbox"):
            self._local.sandbox = Sandbox(provider=True, emulator=self.emulator,
                                          emulator_url=self.emulator_url).__enter__()
            with self._lock:
                self._all.append(self._local.sandbox)
        return self._local.sandbox

    def close(self) -> None:
        """Stop every sandbox started."""
        for sb in self._all:
            sb.__exit__(None, None, None)


def dir_name(subject: str) -> str:
    """The directory of a subject's runs (a subject's name or a mutant's id made a file
    name)."""
    return subject.replace("/", "_").replace(":", "_")


@dataclass
class Matrix:
    """What each run needs: the subjects, where runs go, the sandboxes, who hears of runs."""

    scenario: Scenario
    subjects: dict[str, Subject]
    out: Path
    sandboxes: _Sandboxes
    progress: Callable[[Row, RunResult], None]
    # Runs under out/<subject>/<fault>-seed<n> (a matrix), or out/<fault>-seed<n> (one
    # solution's faults, as `kit eval` lays them out).
    by_subject: bool = True
    lock: threading.Lock = field(default_factory=threading.Lock)

    def run_dir(self, row: Row, seed: int) -> Path:
        """Where the run of `row` under `seed` goes."""
        base = self.out / dir_name(row.subject) if self.by_subject else self.out
        return base / f"{row.fault}-seed{seed}"

    def run(self, row: Row, run_seed: int) -> RunResult:
        """Run one row once, in this thread's sandbox, and record it in the row."""
        interrupt.checkpoint()
        with tempfile.TemporaryDirectory(prefix="kit-solution-") as tmp:
            solution = self.subjects[row.subject].solution(self.scenario,
                                                           Path(tmp) / "solution")
            result = run_once(self.scenario, solution, row.fault, run_seed,
                              self.run_dir(row, run_seed), self.sandboxes.mine())
        self.record(row, result)
        return result

    def record(self, row: Row, result: RunResult) -> None:
        """Keep a run's result in its row and report it."""
        with self.lock:
            row.runs.append(result)
        self.progress(row, result)


def execute(matrix: Matrix, tasks: list[tuple[Row, int]], jobs: int,
            executor: str = "local", address: str | None = None) -> None:
    """Run every (row, seed) on `jobs` workers: threads here, or Ray actors of a local
    cluster or of the one at `address` (kit/evaluate/cluster.py); the sandboxes stopped at
    the end."""
    try:
        if executor == "ray":
            cluster.run_matrix(matrix, tasks, jobs, address)
        else:
            _run_all(matrix, tasks, jobs)
    finally:
        # Services die with their pool thread (PR_SET_PDEATHSIG); this removes the rest.
        matrix.sandboxes.close()
    for row in {id(r): r for r, _ in tasks}.values():
        row.runs.sort(key=lambda r: r.seed)


def run_solution(scenario: Scenario, solution: Path, faults: list[str], seeds: list[int],
                 out: Path, emulator: str, emulator_url: str | None, *, jobs: int,
                 executor: str = "local", address: str | None = None,
                 progress: Callable[[RunResult], None] = lambda run: None
                 ) -> list[RunResult]:
    """Every fault and seed of one solution (`kit eval`'s runs, out/<fault>-seed<n>) on
    `jobs` workers of `executor`; the results in the order of faults, then seeds."""
    rows = [Row("solution", fault, ()) for fault in faults]
    subject = Given.shipped(solution) if executor == "ray" else Given(solution)
    matrix = Matrix(scenario, {"solution": subject}, out,
                    _Sandboxes(emulator, emulator_url), lambda row, run: progress(run),
                    by_subject=False)
    execute(matrix, [(row, seed) for row in rows for seed in seeds], jobs, executor,
            address)
    results = [run for row in rows for run in row.runs]
    for run in results:  # a shipped copy ran, the given directory was graded
        run.solution = str(solution)
    return results


def _run_all(matrix: Matrix, tasks: list[tuple[Row, int]], jobs: int) -> None:
    """Run the tasks on `jobs` threads; the first failure cancels the rest."""
    with ThreadPoolExecutor(max_workers=max(1, jobs), thread_name_prefix="validate") as pool:
        futures = [pool.submit(matrix.run, row, s) for row, s in tasks]
        try:
            for future in futures:
                future.result()
        except BaseException:
            for future in futures:  # a Ctrl-C must not wait for the rest of the matrix
                future.cancel()
            raise
