"""`kit validate`: a scenario's kill matrix."""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import TYPE_CHECKING

from kit.cli.common import (
    EXIT_FAIL,
    EXIT_OK,
    console,
    emulator_flags,
    emulator_of,
    require_confinement,
    team_preflight,
)
from kit.evaluate import runcost
from kit.report.escape import terminal as t
from kit.report.show import show

if TYPE_CHECKING:
    pass



def cmd_validate(args: argparse.Namespace) -> int:
    """Run the kill matrix: golden passes everywhere, every variant killed for its reason."""
    from kit import scenario
    from kit.evaluate.validate import uncovered, validate
    from kit.report.table import kill_matrix
    from kit.variants import load_all

    sc = scenario.load(args.scenario)
    require_confinement(args)
    args.jobs = runcost.resolve(args.jobs, console.print)
    emulator, url = emulator_of(args)
    if sc.golden.is_dir():
        team_preflight(sc, sc.golden)
    out = Path(args.out) / sc.name / ("validate-" + time.strftime("%Y%m%d-%H%M%S"))
    roots = "".join(f" --scenarios {d}" for d in args.scenarios)
    console.print(f"reproduce: kit validate {sc.name}{roots} --repeat {args.repeat} "
                  f"--seed {args.seed}"
                  + "".join(f" --only {name}" for name in args.only or [])
                  + (" --sample" if args.sample else "") + emulator_flags(args))
    with console.status(f"validating {sc.name}") as status, \
            runcost.measured(f"kit validate {sc.name} --jobs 1") as per_run:
        rows = validate(sc, out, repeat=args.repeat, jobs=args.jobs, seed=args.seed,
                        only=set(args.only) if args.only else None, sample=args.sample,
                        emulator=emulator, emulator_url=url, executor=args.executor,
                        address=args.address, progress=lambda row, run: status.update(
                            f"{row.subject} under {row.fault} (seed {run.seed}): "
                            f"{row.status(run)}"))
        runs = sum(len(row.runs) for row in rows)
        if args.jobs == 1 and args.executor == "local" and runs:
            runcost.save(per_run(runs))  # --jobs auto's figures: uncontended runs
    show(kill_matrix(rows, sc.reward, reward=sc.trust != "team"))
    bad = [row for row in rows if not row.ok]
    flaky = [row for row in rows if row.flaky]
    for row in bad:
        console.print(f"[red]{t(row.subject)}[/] under {t(row.fault)}: "
                      + ", ".join(row.statuses))
    for row in flaky:
        console.print(f"[yellow]flaky[/]: {t(row.subject)} under {t(row.fault)} disagrees "
                      "across seeds")
    missing = uncovered(sc, load_all(sc))
    if missing:
        console.print(f"no variant of {sc.name} is killed by: {', '.join(missing)} (only "
                      "unit tests show they can fail)")
    console.print(f"{len(rows) - len(bad)}/{len(rows)} rows as expected; runs in {out}")
    return EXIT_OK if not bad and not flaky else EXIT_FAIL


def add_validate(va: argparse.ArgumentParser) -> None:
    """The options of `kit validate`."""
    va.add_argument("scenario")
    va.add_argument("--repeat", type=int, default=1, help="seeds per row (reports flakes)")
    va.add_argument("--jobs", type=runcost.parse_jobs, default=1, help="parallel runs, each "
                    "in its own sandbox, or auto: from the CPU per run measured here and the "
                    "cores (kit/evaluate/runcost.py)")
    va.add_argument("--seed", type=int, default=1)
    va.add_argument("--only", action="append", metavar="ROW",
                    help="run only this row: golden or a variant name (repeatable)")
    va.add_argument("--sample", action="store_true",
                    help="the quick tier: golden, each alternative once, and a sample of "
                    "defects that covers every invariant the defects name")
    va.add_argument("--out", default="runs")
    va.add_argument("--require-confinement", action="store_true",
                    help="refuse to run (exit 2) unless every axis of confinement is available")
