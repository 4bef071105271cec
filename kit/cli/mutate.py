"""The `kit mutate` subcommand: its options and what it prints."""

from __future__ import annotations

import argparse
import contextlib
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kit.cli.common import EXIT_FAIL, EXIT_OK, console, emulator_of, solution_path, take_solution
from kit.evaluate import runcost
from kit.report.show import show

if TYPE_CHECKING:
    from kit.scenario import Scenario


def register(sub: Any, parents: list[argparse.ArgumentParser]) -> None:
    """Add `kit mutate` to the subcommands."""
    mu = sub.add_parser("mutate", parents=parents,
                        help="mutation analysis of the grader: judge single mutants of a "
                        "solution and report the survivors")
    mu.add_argument("scenario")
    mu.add_argument("--solution", help="solution directory (default: the golden one)")
    mu.add_argument("--all", action="store_true", dest="all_faults",
                    help="run each mutant under every fault (default: one drawn from --seed)")
    mu.add_argument("--fault", action="append", metavar="NAME", dest="faults",
                    help="run each mutant under this fault instead of the sampled one (one "
                    "that can reach the mutated code, e.g. db_outage for a database "
                    "handler); repeatable")
    mu.add_argument("--escalate", type=_budget, default=None, metavar="N|all",
                    help="judge a mutant that survives its fault again under at most N of "
                    "the faults it has not met, those reaching its code first, until one "
                    "kills it (default: all; 0: no escalation)")
    mu.add_argument("--seed", type=int, default=1)
    mu.add_argument("--jobs", type=runcost.parse_jobs, default=1,
                    help="parallel runs, each in its own sandbox, or auto "
                         "(kit/evaluate/runcost.py)")
    mu.add_argument("--only", action="append", metavar="ID",
                    help="judge only this mutant (an id or an id prefix, e.g. py.; repeatable)")
    mu.add_argument("--reuse", metavar="PATH", action="append",
                    help="reuse the verdicts of an earlier kit mutate for the mutants "
                    "unchanged since (same patch, same faults): its mutate.json, or the "
                    "output directory of one interrupted (its finished runs); repeatable, "
                    "later wins")
    mu.add_argument("--list", action="store_true", help="list the mutants and judge none")
    mu.add_argument("--out", default="runs")


def _budget(text: str) -> int | None:
    """--escalate's value: a count of faults, or None for every fault."""
    if text == "all":
        return None
    if not text.isdigit():
        raise argparse.ArgumentTypeError(f"{text!r}: a number of faults (0 or more) or all")
    return int(text)


def main(args: argparse.Namespace) -> int:
    """Run `kit mutate`; exit 1 when a mutant survives or a run ends in error."""
    from kit import scenario

    sc = scenario.load(args.scenario)
    given = solution_path(args.solution, sc.golden, sc.terraform.dir)
    with contextlib.ExitStack() as stack:
        return _mutate(args, sc, take_solution(stack, given, sc))


def _mutate(args: argparse.Namespace, sc: Scenario, solution: Path) -> int:
    """`kit mutate` of the intake's snapshot of the solution."""
    from kit.mutate import generate, report
    from kit.mutate.analysis import analyse

    if args.list:
        for m in generate.mutants(solution):
            print(f"{m.id}\t{m.description}")
        return EXIT_OK
    args.jobs = runcost.resolve(args.jobs, console.print)
    emulator, _ = emulator_of(args)
    out = Path(args.out) / sc.name / ("mutate-" + time.strftime("%Y%m%d-%H%M%S"))
    console.print(f"reproduce: kit mutate {sc.name}"
                      + (f" --solution {args.solution}" if args.solution else "")
                      + f" --seed {args.seed}" + (" --all" if args.all_faults else "")
                      + "".join(f" --fault {f}" for f in args.faults or [])
                      + ("" if args.escalate is None else f" --escalate {args.escalate}")
                      + "".join(f" --only {o}" for o in args.only or []))
    with console.status(f"mutating {sc.name}") as status:
        analysis = analyse(sc, solution, out, seed=args.seed, all_faults=args.all_faults,
                           jobs=args.jobs, only=args.only, emulator=emulator,
                           reuse=[Path(p) for p in args.reuse or []],
                           chosen=tuple(args.faults or ()), escalate=args.escalate,
                           executor=args.executor, address=args.address,
                           progress=lambda row, run: status.update(
                               f"{row.subject} under {row.fault}: {run.outcome}"))
    show(report.table(analysis))
    data, md = report.write(analysis, out)
    console.print(f"{analysis.count('survived')} survivor(s), {analysis.count('error')} "
                      f"error(s); report in {data} and {md}")
    bad = analysis.count("survived") + analysis.count("error")
    return EXIT_FAIL if bad else EXIT_OK
