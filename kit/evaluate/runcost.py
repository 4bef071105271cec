"""What one run costs on this machine, and the parallelism it implies (`--jobs auto`).

A run mostly waits (the workload's clock, the fault's window, recovery): it keeps a core
busy for `cpu_s` of its `wall_s`. `cores * wall_s / cpu_s` runs side by side keep every
core busy; `--jobs auto` takes that, rounded down, at least 1 and at most 2 per core (the
oversubscription at which `kit validate` was shown to give the verdicts of `--jobs 1`,
docs/benchmarks.md). The figures are the last measurement of a `kit validate --jobs 1`
here (CPU-seconds of the whole process tree over its runs: the command, the services and
the sandboxes it started, Terraform, the workers; wall over runs: written to
<cache>/run-cost.json), or, before any, the issue's measurement on 2 cores. The choice is a
pure function of those figures and the cores present.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path

import psutil

from kit import settings

MAX_PER_CORE = 2


@dataclass(frozen=True)
class RunCost:
    """CPU-seconds and wall seconds per run, over `runs` runs; where the figures come from."""

    cpu_s: float
    wall_s: float
    runs: int
    source: str

    def jobs(self, cores: int) -> int:
        """The parallel runs that keep `cores` busy (at least 1, at most 2 per core)."""
        fill = int(cores * self.wall_s / self.cpu_s) if self.cpu_s > 0 else cores
        return max(1, min(MAX_PER_CORE * cores, fill))


# Before any measurement here: `kit eval order-pipeline --fault none` on 2 cores, 15.3 s
# wall and 10.3 CPU-seconds (issue 28).
DEFAULT = RunCost(10.3, 15.3, 1, "issue 28's measurement (kit eval --fault none, 2 cores)")


def path() -> Path:
    """Where the last measurement is kept."""
    return settings.cache_dir() / "run-cost.json"


def load() -> RunCost:
    """The last measurement here, or DEFAULT."""
    try:
        data = json.loads(path().read_text())
        return RunCost(float(data["cpu_s"]), float(data["wall_s"]), int(data["runs"]),
                       str(data["source"]))
    except (OSError, ValueError, KeyError, TypeError):
        return DEFAULT


def save(cost: RunCost) -> None:
    """Keep a measurement for later `--jobs auto` choices."""
    path().parent.mkdir(parents=True, exist_ok=True)
    path().write_text(json.dumps(asdict(cost), indent=1) + "\n")


def cpu_seconds() -> float:
    """CPU-seconds so far of this process, its reaped children and its live descendants
    (with what they reaped): the services, sandboxes, Terraform and workers it started."""
    total = 0.0
    for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN):
        usage = resource.getrusage(who)
        total += usage.ru_utime + usage.ru_stime
    for proc in psutil.Process().children(recursive=True):
        try:
            t = proc.cpu_times()
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            continue  # ended meanwhile: its parent's children times have it
        total += t.user + t.system + t.children_user + t.children_system
    return total


@contextmanager
def measured(source: str) -> Iterator[Callable[[int], RunCost]]:
    """Measure a block of runs; the callable gives the cost per run of `runs` runs."""
    cpu, wall = cpu_seconds(), time.monotonic()

    def per_run(runs: int) -> RunCost:
        n = max(1, runs)
        return RunCost(round((cpu_seconds() - cpu) / n, 2),
                       round((time.monotonic() - wall) / n, 2), runs, source)

    yield per_run


def cores() -> int:
    """The cores this process may run on."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (
        os.cpu_count() or 1)


def parse_jobs(value: str) -> int | str:
    """A --jobs value: a positive count, or `auto`."""
    if value == "auto":
        return value
    try:
        n = int(value)
    except ValueError:
        n = 0
    if n < 1:
        raise argparse.ArgumentTypeError(f"--jobs {value!r}: a positive number or auto")
    return n


def resolve(jobs: int | str | None, say: Callable[[str], None]) -> int | None:
    """--jobs as a count: `auto` is the last measurement's choice for this machine's cores
    (said, with the figures it comes from); a count or None stays as it is."""
    if jobs != "auto":
        return None if jobs is None else int(jobs)
    cost, n = load(), cores()
    chosen = cost.jobs(n)
    say(f"--jobs auto: {chosen} ({n} cores x {cost.wall_s} s wall / {cost.cpu_s} CPU-s per "
        f"run, at most {MAX_PER_CORE} per core; figures from {cost.source})")
    return chosen
