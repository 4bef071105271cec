"""`kit eval`: grade one solution under each fault (or against a base with --baseline),
and write its reports."""

from __future__ import annotations

import argparse
import contextlib
import os
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kit.cli.common import (
    EXIT_ERROR,
    EXIT_FAIL,
    EXIT_OK,
    console,
    emulator_flags,
    emulator_of,
    faults_of,
    require_confinement,
    reruns,
    solution_path,
    take_solution,
)
from kit.errors import InputError
from kit.evaluate import runcost
from kit.report.confirm import DEFAULT as CONFIRM
from kit.report.escape import terminal as t
from kit.report.show import show

if TYPE_CHECKING:
    from kit.run.result import RunResult
    from kit.scenario import Scenario



def cmd_eval(args: argparse.Namespace) -> int:
    """Grade a solution across the scenario's faults (or one), against a base with
    --baseline; exit code per outcome (with a base: per new failure)."""
    from kit import scenario
    from kit.evaluate import baseline
    from kit.report.table import agreement

    sc = scenario.load(args.scenario)
    require_confinement(args)
    args.jobs = runcost.resolve(args.jobs, console.print)
    emulator, url = emulator_of(args)
    if args.cross_check and (args.executor != "local" or (args.jobs or 1) > 1):
        raise InputError("--cross-check runs both emulators' sandboxes side by side in this "
                         "process (the probes need both): use it without --executor ray "
                         "and --jobs")
    solution = solution_path(args.solution, sc.golden, sc.terraform.dir)
    faults = faults_of(args.fault, sc) if args.fault else list(sc.faults)
    out = Path(args.out) / sc.name / time.strftime("%Y%m%d-%H%M%S")
    src = baseline.source(solution)
    command = eval_command(sc.name, args, str(solution), args.scenarios)
    seeds = list(range(args.seed, args.seed + args.repeat))
    base: tuple[baseline.Base, list[RunResult]] | None = None
    decisions: dict[tuple[str, str], dict[str, Any]] = {}
    with contextlib.ExitStack() as stack:
        taken = take_solution(stack, solution, sc)
        console.print(f"reproduce: {t(command)}")
        if args.baseline:
            base, results, findings, decisions = _both_sides(args, sc, (solution, taken),
                                                             faults, seeds, out, emulator, url)
        else:
            results, findings = _grade(args, sc, (solution, taken), faults, seeds, out,
                                       emulator, url, "")
    reproduce = eval_command(sc.name, args, baseline.relative(solution, src),
                              [baseline.relative(Path(d), src) for d in args.scenarios])
    return report_runs(sc, solution, results, command, out,
                   (agreement(results) if args.repeat > 1 else []) + _findings_lines(findings),
                   findings, base=base, fail_on=args.fail_on, source=src,
                   reproduce=f"git checkout {src.commit[:12]} && {reproduce}" if src
                   else command, decisions=decisions)


def _both_sides(args: argparse.Namespace, sc: Scenario, solution: tuple[Path, Path],
                faults: list[str], seeds: list[int], out: Path, emulator: str, url: str | None
                ) -> tuple[Any, list[RunResult], list[Any], dict[tuple[str, str], Any]]:
    """With --baseline: (the base, its runs), the head's runs and findings, and the
    reruns' decisions on the head's new failures (graded while the base is checked out).
    `solution`: (the head as given, its intake snapshot)."""
    from kit.evaluate import baseline

    with baseline.checkout(args.baseline, solution[0]) as side, \
            contextlib.ExitStack() as stack:
        exported = solution_path(str(side.solution), sc.golden, sc.terraform.dir)
        base_solution = (exported, take_solution(stack, exported, sc))
        console.print(t(f"baseline: {args.baseline} in {side.solution}"))
        base_runs = _grade(args, sc, base_solution, faults, seeds, out / "baseline",
                           emulator, url, "base: ")[0]
        results, findings = _grade(args, sc, solution, faults, seeds, out, emulator, url,
                                   "head: ")
        decisions = _confirm(args, sc, (base_solution, solution), (base_runs, results), out,
                             emulator, url)
    return (side, base_runs), results, findings, decisions


def _confirm(args: argparse.Namespace, sc: Scenario,
             solutions: tuple[tuple[Path, Path], tuple[Path, Path]],
             graded: tuple[list[RunResult], list[RunResult]], out: Path, emulator: str,
             url: str | None) -> dict[tuple[str, str], dict[str, Any]]:
    """Each new failure rerun --confirm times on both sides (at the seed it failed at,
    then at fresh seeds) and decided new, flaky or unknown (kit/report/confirm.py)."""
    from kit.report import compare, confirm

    base, head = ([run.to_dict() for run in runs] for runs in graded)
    comparison = compare.classify(base, head)
    todo = confirm.pending(comparison, head)
    if args.confirm <= 0 or not todo:
        return {}
    console.print(t(f"confirm: {sum(e['status'] == compare.NEW for e in comparison)} new "
                    f"failure(s) under {', '.join(todo)}, each rerun {args.confirm} time(s) "
                    "on both sides"))
    reruns: dict[str, list[dict[str, Any]]] = {"base": [], "head": []}
    for fault, first in todo.items():
        again = sorted({s for seed in first for s in confirm.seeds(seed, args.confirm)})
        for name, where in zip(("base", "head"), solutions, strict=True):
            found = _grade(args, sc, where, [fault], again, out / "confirm" / name,
                           emulator, url, f"confirm {name}: ")[0]
            reruns[name] += [run.to_dict() for run in found]
    return confirm.decisions(comparison, base, head, reruns["base"], reruns["head"],
                             args.confirm)


def eval_command(name: str, args: argparse.Namespace, solution: str,
                  roots: Sequence[str]) -> str:
    """The kit eval command of these arguments (to reproduce it)."""
    return (f"kit eval {name}" + "".join(f" --scenarios {d}" for d in roots)
            + f" --solution {solution} --seed {args.seed}"
            + (f" --fault {args.fault}" if args.fault else "")
            + (f" --repeat {args.repeat}" if args.repeat > 1 else "")
            + (f" --baseline {args.baseline}" if args.baseline else "")
            + (f" --fail-on {args.fail_on}" if args.fail_on != "new" else "")
            + (f" --confirm {args.confirm}" if args.baseline and args.confirm != CONFIRM else "")
            + emulator_flags(args))


def _findings_lines(findings: Sequence[Any]) -> list[str]:
    from kit.evaluate import crosscheck

    return [t(line) for line in crosscheck.lines(list(findings))]


def _grade(args: argparse.Namespace, sc: Scenario, solution: tuple[Path, Path],
           faults: list[str], seeds: list[int], out: Path, emulator: str, url: str | None,
           label: str) -> tuple[list[RunResult], list[Any]]:
    """Every fault and seed of one solution, (as given, its intake snapshot): the snapshot
    runs, the given directory is named (on both emulators with --cross-check)."""
    from kit.evaluate import crosscheck, runner

    plan = runner.Plan(sc, solution[1], faults, seeds, out, shown=str(solution[0]))

    def progress(text: str, run: RunResult | None) -> None:
        if run is None:
            status.update(t(f"{sc.name}: {label}{text}"))
        else:
            console.print(t(f"{label}{text}: {run.outcome}"))

    with console.status(sc.name) as status:
        if args.cross_check:
            return crosscheck.cross_check(plan, emulator, url, progress)
        return runner.run_all(plan, emulator, url, progress,
                              jobs=_eval_jobs(args, len(faults) * len(seeds)),
                              executor=args.executor, address=args.address), []


def _eval_jobs(args: argparse.Namespace, runs: int) -> int:
    """kit eval's parallel runs: --jobs; by default one (local), or on Ray every run at
    once on a cluster at --address and as many as this machine has cores on a local one."""
    if args.jobs is not None:
        return args.jobs
    if args.executor == "local":
        return 1
    return runs if args.address else max(1, min(runs, os.cpu_count() or 1))


def report_runs(sc: Scenario, solution: Path, results: list[RunResult], command: str, out: Path,
            notes: list[str], findings: Sequence[Any] = (),
            base: tuple[Any, list[RunResult]] | None = None, fail_on: str = "any",
            source: Any = None, reproduce: str | None = None,
            decisions: dict[tuple[str, str], dict[str, Any]] | None = None) -> int:
    """The verdict table, the failures and `notes`; report.json, junit.xml, summary.md and
    report.html in `out` (with a base: both sides and the comparison, its new failures as
    the reruns' `decisions` class them); the exit code of the verdict."""
    from dataclasses import asdict

    from kit.report import compare, document
    from kit.report.table import failures, verdict_table

    show(verdict_table(results))
    for line in failures(results) + notes:
        console.print(line)
    src = {**asdict(source), "top": str(source.top)} if source is not None else None
    doc = document.build(sc, str(solution), results, command, findings=findings,
                         source=src, reproduce=reproduce)
    if base is None:
        doc = compare.attach(doc, None, fail_on)
    else:
        side, runs = base
        doc = compare.attach(doc, document.build(sc, side.shown, runs, command),
                             fail_on, side.ref or str(side.solution), side.ref, side.commit,
                             decisions)
    for line in compare.lines(doc.get("comparison", [])):
        console.print(t(line), highlight=False)
    return write_reports(doc, out)


def write_reports(doc: dict[str, Any], out: Path) -> int:
    """report.json, junit.xml, summary.md and report.html in `out`; the exit code of the
    verdict."""
    from kit.report import document, html, junit, markdown

    document.write(doc, out / "report.json")
    junit.write(doc, out / "junit.xml")
    markdown.write(doc, out / "summary.md")
    html.write(doc, out / "report.html")
    reward = f", {markdown.reward_line(doc)}" if markdown.shows_reward(doc) else ""
    console.print(f"verdict: {doc['verdict']} (outcome {doc['outcome']}{reward}); "
                  f"reports in {out}")
    return {"pass": EXIT_OK, "fail": EXIT_FAIL}.get(doc["verdict"], EXIT_ERROR)


def add_eval(sub: Any, parents: list[argparse.ArgumentParser]) -> None:
    """Add `kit eval` to the subcommands."""
    ev = sub.add_parser("eval", parents=parents,
                        help="grade a solution directory across a scenario's faults")
    ev.add_argument("--jobs", type=runcost.parse_jobs, default=None, help="parallel runs, "
                    "each in its own sandbox, or auto (kit/evaluate/runcost.py) (default: 1; with "
                    "--executor ray, every run at once on a cluster at --address, or one "
                    "per core on a local one)")
    ev.add_argument("--repeat", type=int, default=1, help="seeds per fault (reports agreement)")
    ev.add_argument("--cross-check", action="store_true",
                    help="run every fault on both emulators; an invariant whose verdict "
                    "differs is a fidelity finding, never the solution's failure")
    ev.add_argument("--baseline", metavar="DIR|REF",
                    help="also grade the base (a solution directory, or a git ref of the "
                    "solution's repository, exported into a temporary directory) under the "
                    "same faults and seeds; each (fault, invariant) is a new failure, "
                    "fixed, still failing or pass")
    ev.add_argument("--fail-on", choices=("new", "flaky", "any"), default="new",
                    help="with --baseline: fail on new failures only (default), also on "
                    "flaky ones (new on a first pass, not in every rerun), or on any")
    ev.add_argument("--confirm", type=reruns, default=CONFIRM, metavar="N",
                    help="with --baseline: rerun each new failure N times on both sides "
                    "(its seed, then fresh seeds: seed + 1000 k); new only if the head "
                    "fails and the base does not in every run, else flaky (default: 2; "
                    "0: no reruns)")
