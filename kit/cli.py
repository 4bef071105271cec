"""The `kit` command: doctor, setup, list, eval, validate, drill, mutate; for CI: check,
comment, report, toolchain-key; for agents: tasks, serve."""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.console import Console
from rich.table import Table

from kit import interrupt, toolchain
from kit.aws import ACCOUNT_ID
from kit.errors import InputError, KitError, SolutionError, describe_os_error
from kit.evaluate import runcost
from kit.mutate import command as mutate_command
from kit.report.confirm import DEFAULT as CONFIRM
from kit.report.escape import terminal as t
from kit.report.show import show
from kit.sandbox import limits
from kit.sandbox.emulator import NAMES

if TYPE_CHECKING:
    from kit.run.result import RunResult
    from kit.scenario import Scenario

console = Console(stderr=True, soft_wrap=True)  # CI logs: never wrap a message

EXIT_OK, EXIT_FAIL, EXIT_ERROR, EXIT_USAGE = 0, 1, 3, 2


def cmd_doctor(args: argparse.Namespace) -> int:
    """Report every toolchain piece; exit non-zero naming the fix for each missing one."""
    table = Table(title="kit toolchain")
    table.add_column("piece")
    table.add_column("status")
    table.add_column("where / fix")
    missing = 0
    pieces = [(p, True) for p in toolchain.pieces()] + [(p, False) for p in _optional_pieces()]
    for piece, required in pieces:
        if piece.ok:
            table.add_row(piece.name, "[green]ok[/]", piece.found)
        elif required:
            missing += 1
            table.add_row(piece.name, "[red]missing[/]", f"fix: {piece.fix}")
        else:
            table.add_row(piece.name, "[yellow]not installed[/]", f"to add: {piece.fix}")
    show(table)
    if missing:
        console.print(f"[red]{missing} piece(s) missing.[/] Run the fix shown for each.")
        return EXIT_ERROR
    _confinement_notes()
    return EXIT_OK


def _optional_pieces() -> list[toolchain.Piece]:
    """Pieces only some commands or tests need (`--emulator localstack`, the HTML report's
    browser test): reported, never required."""
    from kit.toolchain import chromium, localstack_install

    return [toolchain.Piece("LocalStack (optional: --emulator localstack, --cross-check)",
                            localstack_install.found(), localstack_install.FIX),
            chromium.piece()]


def _confinement_notes() -> None:
    """Say which axes of confinement this machine cannot give (runs are marked)."""
    from kit.sandbox.support import missing

    lacking = missing()
    if not lacking:
        console.print("confinement: every axis available (user, mount, pid, network, "
                      "capabilities, no_new_privs, rlimits, cgroup)")
        return
    console.print("[yellow]confinement[/]: runs here are marked as not fully confined "
                  "(`kit eval --require-confinement` refuses them):")
    for line in lacking:
        console.print(f"  - {line}")


def cmd_setup(args: argparse.Namespace) -> int:
    """Install whatever is missing (idempotent; a second run takes seconds)."""
    def log(message: str) -> None:
        console.print(f"[cyan]setup[/] {t(message)}")

    toolchain.setup(log)
    if args.localstack:
        from kit.toolchain import localstack_install

        localstack_install.install(log)
    return cmd_doctor(args)


def cmd_new_scenario(args: argparse.Namespace) -> int:
    """Write a scenario skeleton (which cannot pass until filled in)."""
    from kit import skeleton

    root = Path(args.root).resolve()
    for path in skeleton.create(args.name, root):
        print(path)
    print(f"next: fill in every TODO, write golden/{args.name} and variants, then "
          f"`kit validate {args.name} --scenarios {root}`")
    return EXIT_OK


def cmd_list(args: argparse.Namespace) -> int:
    """List the scenarios with their faults and invariants."""
    from kit import scenario

    for name in scenario.known():
        if args.names:
            print(name)
            continue
        sc = scenario.load(name)
        print(f"{name}: {sc.summary.strip()}")
        print(f"  faults: {', '.join(sc.faults)}")
        print(f"  invariants: {', '.join(sc.invariants)}")
    return EXIT_OK


def _team_preflight(sc: Scenario, solution: Path) -> None:
    """Team mode, before any run: the registry modules are in the scenario's cache,
    workers.cwd names a directory of the solution, and the workers' declared dependencies
    are installed (once; InputError if the index cannot)."""
    if sc.trust != "team":
        return
    from kit.deploy import modules
    from kit.run.bind import worker_deps

    modules.preflight(sc.module_cache, solution, Path(sc.terraform.dir))
    sc.workers_dir(solution)
    worker_deps(sc, solution)


def _taken(stack: contextlib.ExitStack, solution: Path, sc: Scenario) -> Path:
    """The intake's snapshot of `solution` (kit/intake/snapshot.py) for as long as `stack`
    lives, team mode's preflight done on it: nothing reads the original after this."""
    from kit.intake import snapshot

    taken = stack.enter_context(snapshot.taken(solution))
    _team_preflight(sc, taken)
    return taken


def _solution(given: str | None, golden: Path, module: str = ".") -> Path:
    """The solution directory to grade (default: the golden one); InputError if unusable.
    `module`: where its Terraform is inside it (the scenario's terraform.dir)."""
    solution = Path(given) if given else golden
    if not solution.is_dir() or not any((solution / module).glob("*.tf")):
        where = "at its root" if module == "." else f"in {module}/ (terraform.dir)"
        raise InputError(f"solution directory {solution} does not exist or holds no *.tf "
                         f"file {where}; pass --solution DIR (a directory with the Terraform "
                         f"{where})")
    return solution


def _faults(fault: str, sc: Scenario) -> list[str]:
    """[fault], checked against the scenario's faults."""
    if fault not in sc.faults:
        raise InputError(f"unknown fault {fault!r} for {sc.name}; known: "
                         f"{', '.join(sc.faults)}")
    return [fault]


def cmd_eval(args: argparse.Namespace) -> int:
    """Grade a solution across the scenario's faults (or one), against a base with
    --baseline; exit code per outcome (with a base: per new failure)."""
    from kit import scenario
    from kit.evaluate import baseline
    from kit.report.table import agreement

    sc = scenario.load(args.scenario)
    _require_confinement(args)
    args.jobs = runcost.resolve(args.jobs, console.print)
    emulator, url = _emulator(args)
    if args.cross_check and (args.executor != "local" or (args.jobs or 1) > 1):
        raise InputError("--cross-check runs both emulators' sandboxes side by side in this "
                         "process (the probes need both): use it without --executor ray "
                         "and --jobs")
    solution = _solution(args.solution, sc.golden, sc.terraform.dir)
    faults = _faults(args.fault, sc) if args.fault else list(sc.faults)
    out = Path(args.out) / sc.name / time.strftime("%Y%m%d-%H%M%S")
    src = baseline.source(solution)
    command = _eval_command(sc.name, args, str(solution), args.scenarios)
    seeds = list(range(args.seed, args.seed + args.repeat))
    base: tuple[baseline.Base, list[RunResult]] | None = None
    decisions: dict[tuple[str, str], dict[str, Any]] = {}
    with contextlib.ExitStack() as stack:
        taken = _taken(stack, solution, sc)
        console.print(f"reproduce: {t(command)}")
        if args.baseline:
            base, results, findings, decisions = _both_sides(args, sc, (solution, taken),
                                                             faults, seeds, out, emulator, url)
        else:
            results, findings = _grade(args, sc, (solution, taken), faults, seeds, out,
                                       emulator, url, "")
    reproduce = _eval_command(sc.name, args, baseline.relative(solution, src),
                              [baseline.relative(Path(d), src) for d in args.scenarios])
    return _report(sc, solution, results, command, out,
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
        exported = _solution(str(side.solution), sc.golden, sc.terraform.dir)
        base_solution = (exported, _taken(stack, exported, sc))
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


def _eval_command(name: str, args: argparse.Namespace, solution: str,
                  roots: Sequence[str]) -> str:
    """The kit eval command of these arguments (to reproduce it)."""
    return (f"kit eval {name}" + "".join(f" --scenarios {d}" for d in roots)
            + f" --solution {solution} --seed {args.seed}"
            + (f" --fault {args.fault}" if args.fault else "")
            + (f" --repeat {args.repeat}" if args.repeat > 1 else "")
            + (f" --baseline {args.baseline}" if args.baseline else "")
            + (f" --fail-on {args.fail_on}" if args.fail_on != "new" else "")
            + (f" --confirm {args.confirm}" if args.baseline and args.confirm != CONFIRM else "")
            + _emulator_flags(args))


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


def _report(sc: Scenario, solution: Path, results: list[RunResult], command: str, out: Path,
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
    return _write_reports(doc, out)


def _write_reports(doc: dict[str, Any], out: Path) -> int:
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


def _emulator(args: argparse.Namespace) -> tuple[str, str | None]:
    """The primary emulator and the URL of a running LocalStack (or None), checked before
    anything starts: the emulator its fixes expect, and a LocalStack the kit must start
    has to be installed."""
    from kit.toolchain import emulators, localstack_install

    emulators.require()

    url = args.emulator_url
    emulator = args.emulator or ("localstack" if url else "moto")
    if url and emulator != "localstack":
        raise InputError("--emulator-url is the address of a running LocalStack: use it "
                         "with --emulator localstack (or alone)")
    cross = getattr(args, "cross_check", False)
    if (emulator == "localstack" or cross) and not url \
            and localstack_install.python() is None:
        flag = "--cross-check" if cross else "--emulator localstack"
        raise InputError(f"{flag}: LocalStack is not installed; run "
                         f"`{localstack_install.FIX}`, or point at a running one with "
                         "--emulator-url URL")
    if url and (getattr(args, "jobs", 1) or 1) > 1:
        raise InputError("--emulator-url with --jobs above 1: parallel runs would empty "
                         "each other's account on the one LocalStack; use --jobs 1")
    return emulator, url


def _emulator_flags(args: argparse.Namespace) -> str:
    """The emulator flags of a command, to reproduce it."""
    return ((f" --emulator {args.emulator}" if args.emulator else "")
            + (f" --emulator-url {args.emulator_url}" if args.emulator_url else "")
            + (" --cross-check" if getattr(args, "cross_check", False) else ""))


def _require_confinement(args: argparse.Namespace) -> None:
    """Refuse to grade (exit 2) when asked for full confinement this machine cannot give;
    otherwise warn that the runs will be marked."""
    from kit.sandbox.support import missing

    lacking = missing()
    if lacking and args.require_confinement:
        raise InputError("--require-confinement: this machine cannot confine the solution's "
                         "processes on every axis, so nothing was graded. Missing:\n  - "
                         + "\n  - ".join(lacking))
    for line in lacking:
        console.print(f"[yellow]not confined[/] (runs are marked): {line}")


def cmd_drill(args: argparse.Namespace) -> int:
    """Run a drill by hand: one fault (or each in turn), watched live, then its timeline."""
    from kit import scenario
    from kit.recorder import Recorder
    from kit.report.live import LiveView
    from kit.run.pipeline import run_once
    from kit.run.sandbox import Sandbox

    sc = scenario.load(args.scenario)
    if sc.workload.kind != "drill":
        raise InputError(f"{sc.name} is a {sc.workload.kind} scenario, not a drill "
                         "(workload.kind: drill): run it with `kit eval`")
    _require_confinement(args)
    emulator, url = _emulator(args)
    solution = _solution(args.solution, sc.golden, sc.terraform.dir)
    faults = _faults(args.fault, sc) if args.fault else [f for f in sc.faults if f != "none"]
    out = Path(args.out) / sc.name / ("drill-" + time.strftime("%Y%m%d-%H%M%S"))
    command = (f"kit drill {sc.name} --solution {solution} --seed {args.seed}"
               + (f" --fault {args.fault}" if args.fault else "") + _emulator_flags(args))
    results = []
    with contextlib.ExitStack() as stack:
        taken = _taken(stack, solution, sc)
        console.print(f"reproduce: {t(command)}")
        sandbox = stack.enter_context(Sandbox(provider=True, emulator=emulator,
                                              emulator_url=url))
        for fault in faults:
            recorder = Recorder()
            view = LiveView(recorder, console, f"{sc.name}: {fault} (seed {args.seed})")
            view.start()
            try:
                run = run_once(sc, taken, fault, args.seed, out / f"{fault}-seed{args.seed}",
                               sandbox, recorder)
            finally:
                view.stop()
            run.solution = str(solution)
            results.append(run)
            _drill_report(run)
    return _report(sc, solution, results, command, out, [])


def _drill_report(run: RunResult) -> None:
    """A drill's measured RPO and RTO and its whole timeline (also as timeline.md)."""
    from kit.history import History
    from kit.report.timeline import Timeline

    console.print(f"[bold]{t(run.fault)}[/] (seed {run.seed}): {run.outcome}"
                  + (t(f": {run.error}") if run.error else ""))
    for check_id in ("recovery.rpo", "recovery.rto", "recovery.consistent"):
        if check_id in run.results:
            result = run.results[check_id]
            console.print(t(f"  {check_id}: {result.verdict}: {result.summary}"),
                          highlight=False)
    path = Path(run.run_dir or ".") / "history.json"
    if not path.exists():
        return
    lines = [event.line() for event in Timeline.of(History.load(path).ops).events]
    (path.parent / "timeline.md").write_text(
        f"# Timeline: {run.scenario}, {run.fault}, seed {run.seed}\n\n```\n"
        + "\n".join(lines) + "\n```\n")
    console.print("  timeline:")
    for line in lines:
        console.print(f"    {t(line)}", highlight=False, soft_wrap=True)


def cmd_validate(args: argparse.Namespace) -> int:
    """Run the kill matrix: golden passes everywhere, every variant killed for its reason."""
    from kit import scenario
    from kit.evaluate.validate import uncovered, validate
    from kit.report.table import kill_matrix
    from kit.variants import load_all

    sc = scenario.load(args.scenario)
    _require_confinement(args)
    args.jobs = runcost.resolve(args.jobs, console.print)
    emulator, url = _emulator(args)
    if sc.golden.is_dir():
        _team_preflight(sc, sc.golden)
    out = Path(args.out) / sc.name / ("validate-" + time.strftime("%Y%m%d-%H%M%S"))
    roots = "".join(f" --scenarios {d}" for d in args.scenarios)
    console.print(f"reproduce: kit validate {sc.name}{roots} --repeat {args.repeat} "
                  f"--seed {args.seed}"
                  + "".join(f" --only {name}" for name in args.only or [])
                  + (" --sample" if args.sample else "") + _emulator_flags(args))
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


def cmd_modules(args: argparse.Namespace) -> int:
    """Fill a team repository's registry-module cache from its own `terraform init`."""
    from kit.deploy import modules

    added = modules.vendor(Path(args.source), Path(args.target))
    for record in added:
        console.print(f"{record.key}: {record.source} {record.version or ''} -> "
                      f"{Path(args.target) / record.dir}")
    console.print(f"{len(added)} registry module(s) in {args.target}"
                  + ("" if added else f" (the init in {args.source} installed none)"))
    return EXIT_OK


def cmd_comment(args: argparse.Namespace) -> int:
    """Create or update the PR's one sticky comment from the reports (GitHub Actions)."""
    from kit.ci import comment

    if args.dry_run:
        # The body is the kit's own Markdown (every solution value in it was escaped when
        # summary.md was written), printed raw so it can be piped or diffed; no GitHub.
        sys.stdout.write(comment.body(Path(args.report), args.name,
                                      comment.run_link(dict(os.environ))))
        return EXIT_OK
    posted = comment.post(Path(args.report), args.name)
    console.print(f"comment {posted.action}" + (f": {posted.url}" if posted.url else "")
                  + (f" ({posted.note})" if posted.note else ""))
    return EXIT_OK


def cmd_check(args: argparse.Namespace) -> int:
    """The static checks of Terraform (gate, policy lint), no emulator: exit 1 on a finding."""
    from kit.ci import static
    from kit.intake import snapshot
    from kit.scenario import MODULES, Toolchain, load

    sc = load(args.scenario) if args.scenario else None
    team = sc is not None and sc.repository is not None
    # A team scenario judges its repository (local modules anywhere in it), as a run does.
    root = sc.repository if team and sc else Path(args.root)
    if not root.is_dir():
        raise InputError(f"--root {root}: no such directory (the Terraform root module)")
    with snapshot.taken(root) as taken:  # nothing reads the given tree after this
        findings = static.check(taken, (sc.toolchain if sc else Toolchain()).allowed_providers,
                                sc.modules_dir if sc else MODULES, team=team,
                                root_module=Path(sc.terraform.dir) if team and sc
                                else Path("."))
    for finding in findings:
        print(finding)
    verdict = f"[red]{len(findings)} finding(s)[/]" if findings else "[green]no finding[/]"
    console.print(f"kit check --static {t(root)}: {verdict}")
    return EXIT_FAIL if findings else EXIT_OK


def cmd_toolchain_key(args: argparse.Namespace) -> int:
    """Print the toolchain's cache key (CI caches the toolchain directory under it)."""
    from kit import settings
    from kit.toolchain import stamp

    print(settings.cache_dir() if args.path else stamp.key())
    return EXIT_OK


def _reruns(value: str) -> int:
    """A --confirm value: how many reruns, 0 or more."""
    try:
        n = int(value)
    except ValueError:
        n = -1
    if n < 0:
        raise argparse.ArgumentTypeError(f"--confirm {value!r}: a number of reruns, 0 or "
                                         "more (0: report new failures without rerunning)")
    return n


def build_parser() -> argparse.ArgumentParser:
    """The argument parser for every subcommand."""
    parser = argparse.ArgumentParser(prog="kit", description=__doc__)
    parser.add_argument("-v", "--verbose", action="store_true",
                        help="log each run's stages to stderr as they begin")
    roots, emulators, graded = _roots_options(), _emulator_options(), _graded_options()
    executors = _executor_options()
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("doctor", help="report the toolchain and how to fix what is missing")
    setup = sub.add_parser("setup", help="install the toolchain into the cache (idempotent)")
    setup.add_argument("--localstack", action="store_true",
                       help="also install LocalStack (the optional second emulator) into "
                       "<cache>/localstack/venv")
    ls = sub.add_parser("list", parents=[roots],
                        help="list the scenarios, their faults and invariants")
    ls.add_argument("--names", action="store_true", help="only the names, one per line")
    new = sub.add_parser("new-scenario", help="write a scenario skeleton to fill in")
    new.add_argument("name")
    new.add_argument("--root", default=".", help="where scenarios/, golden/, variants/ go")
    ev = sub.add_parser("eval", parents=[roots, emulators, graded, executors],
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
    ev.add_argument("--confirm", type=_reruns, default=CONFIRM, metavar="N",
                    help="with --baseline: rerun each new failure N times on both sides "
                    "(its seed, then fresh seeds: seed + 1000 k); new only if the head "
                    "fails and the base does not in every run, else flaky (default: 2; "
                    "0: no reruns)")
    sub.add_parser("drill", parents=[roots, emulators, graded],
                   help="run a recovery drill by hand: a live view, then its timeline")
    _add_validate(sub.add_parser("validate", parents=[roots, emulators, executors],
                                 help="run the kill matrix of a scenario"))
    mods = sub.add_parser("modules", help="a team repository's registry-module cache")
    vendor = mods.add_subparsers(dest="action", required=True).add_parser(
        "vendor", help="copy the registry modules of your own `terraform init` into the "
        "cache that the scenario's terraform.modules names")
    vendor.add_argument("--from", dest="source", required=True, metavar="DIR",
                        help="the .terraform/modules directory terraform init filled")
    vendor.add_argument("--to", dest="target", required=True, metavar="CACHE",
                        help="the module cache (e.g. .kit/modules)")
    _add_ci(sub, roots)
    _add_report(sub)
    _add_rl(sub)
    mutate_command.register(sub, [roots, emulators, executors])
    return parser


def _add_report(sub: Any) -> None:
    """`kit report merge`: the reports of parallel CI jobs as one."""
    rep = sub.add_parser("report", help="work with the reports of kit eval")
    merge = rep.add_subparsers(dest="action", required=True).add_parser(
        "merge", help="combine the reports of several kit eval commands of one solution "
        "(e.g. one fault per CI job) into one report.json, summary.md and junit.xml")
    merge.add_argument("reports", nargs="+", metavar="DIR",
                       help="a --out of kit eval (every report.json under it), or a file")
    merge.add_argument("--out", required=True, metavar="DIR", help="where the merged "
                       "report.json, summary.md and junit.xml go")


def cmd_report(args: argparse.Namespace) -> int:
    """Merge the reports of several kit eval commands; exit code per the merged verdict."""
    from kit.report import merge

    paths = merge.reports([Path(d) for d in args.reports])
    doc = merge.merge(paths)
    console.print(f"merged {len(paths)} report(s): {len(doc['runs'])} run(s)")
    return _write_reports(doc, Path(args.out))


def _add_rl(sub: Any) -> None:
    """`kit tasks` and `kit serve` (kit/tasks, kit/rl: their code lives there)."""
    from kit.rl import cli as rl_cli
    from kit.tasks import cli as tasks_cli

    tasks_cli.add_parser(sub)
    rl_cli.add_parser(sub)


def cmd_tasks(args: argparse.Namespace) -> int:
    """`kit tasks list|export|grade` (kit/tasks/cli.py)."""
    from kit.tasks import cli as tasks_cli

    return tasks_cli.run(args)


def cmd_serve(args: argparse.Namespace) -> int:
    """`kit serve`: the OpenEnv environment over HTTP (kit/rl/cli.py; extra kit[rl])."""
    from kit.rl import cli as rl_cli

    return rl_cli.run(args)


def _add_ci(sub: Any, roots: argparse.ArgumentParser) -> None:
    """The commands of a pull-request check (action.yml)."""
    com = sub.add_parser("comment", help="create or update the PR's sticky comment from the "
                         "reports (in GitHub Actions: GITHUB_TOKEN, GITHUB_EVENT_PATH, ...)")
    com.add_argument("--report", required=True, metavar="DIR",
                     help="the --out of the kit eval commands: every summary.md under it")
    com.add_argument("--name", default="kit",
                     help="the check's name: one comment per name (hidden marker)")
    com.add_argument("--dry-run", action="store_true",
                     help="print the comment's body to stdout and post nothing (offline: "
                     "no GitHub environment needed)")
    chk = sub.add_parser("check", parents=[roots], help="the static checks of Terraform in "
                         "seconds, no emulator run (the pre-commit hook)")
    chk.add_argument("--static", action="store_true", required=True,
                     help="the static gate and the policy lint (the only mode so far)")
    chk.add_argument("--root", default=".", help="the Terraform root module (default: .)")
    chk.add_argument("--scenario", help="judge by this scenario's rules (its providers, "
                     "modules; a team scenario: its repository, --root ignored); default: "
                     "the kit's own")
    chk.add_argument("files", nargs="*", help="ignored (pre-commit passes the changed files; "
                     "the whole root module is judged)")
    key = sub.add_parser("toolchain-key",
                         help="print the toolchain's cache key (changes with what setup builds)")
    key.add_argument("--path", action="store_true", help="print the cache directory instead")


def _roots_options() -> argparse.ArgumentParser:
    """The options of every command that looks scenarios up."""
    roots = argparse.ArgumentParser(add_help=False)
    roots.add_argument("--scenarios", action="append", metavar="DIR", default=[],
                       help="also look for scenarios in DIR (holding scenarios/, golden/, "
                       "variants/); repeatable; also KIT_SCENARIOS")
    return roots


def _emulator_options() -> argparse.ArgumentParser:
    """The options of every command that starts sandboxes: which emulator."""
    emulators = argparse.ArgumentParser(add_help=False)
    emulators.add_argument("--emulator", choices=NAMES, default=None,
                           help="the AWS emulator (default: moto); with localstack, moto "
                           "serves what LocalStack lacks (RDS)")
    emulators.add_argument("--emulator-url", metavar="URL",
                           help="use the LocalStack running at URL (e.g. the one your "
                           "tflocal workflow uses) instead of starting one; the kit empties "
                           f"its account {ACCOUNT_ID} before, between and after runs")
    return emulators


def _executor_options() -> argparse.ArgumentParser:
    """The options of every command that runs many runs: where they execute
    (kit/evaluate/matrix.py)."""
    executors = argparse.ArgumentParser(add_help=False)
    executors.add_argument("--executor", choices=("local", "ray"), default="local",
                           help="where the runs execute: threads here, or Ray actors "
                           "(kit[ray])")
    executors.add_argument("--address", help="with --executor ray: an existing Ray cluster "
                           "(default: a local one of --jobs CPUs, started for the command)")
    return executors


def _graded_options() -> argparse.ArgumentParser:
    """What eval and drill share: one solution, its faults in turn (or one), one seed."""
    graded = argparse.ArgumentParser(add_help=False)
    graded.add_argument("scenario")
    graded.add_argument("--solution", help="solution directory (default: the golden one)")
    graded.add_argument("--fault", help="run only this fault (default: each fault in turn)")
    graded.add_argument("--seed", type=int, default=1)
    graded.add_argument("--out", default="runs", help="where histories and reports go")
    graded.add_argument("--require-confinement", action="store_true",
                        help="refuse (exit 2) unless every axis of confinement is available")
    return graded


def _add_validate(va: argparse.ArgumentParser) -> None:
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


COMMANDS = {"doctor": cmd_doctor, "setup": cmd_setup, "list": cmd_list, "eval": cmd_eval,
            "validate": cmd_validate, "new-scenario": cmd_new_scenario, "drill": cmd_drill,
            "modules": cmd_modules, "comment": cmd_comment, "check": cmd_check,
            "toolchain-key": cmd_toolchain_key, "report": cmd_report, "tasks": cmd_tasks,
            "serve": cmd_serve, "mutate": mutate_command.main}


@contextlib.contextmanager
def _roots(dirs: list[str]) -> Iterator[None]:
    """The --scenarios roots first in the scenario search path while a command runs, then
    KIT_SCENARIOS's: each as the intake's snapshot of it."""
    from kit import scenario

    for directory in dirs:
        if not (Path(directory) / "scenarios").is_dir():
            raise InputError(f"--scenarios {directory}: no scenarios/ folder in it (a root "
                             "holds scenarios/<name>/scenario.yaml, golden/ and variants/)")
    # They reach the command's subprocesses (and Ray's nodes) through the environment; an
    # in-process caller gets its own back (a later `kit serve` saw a team's scenarios).
    given = os.environ.get(scenario.ENV_ROOTS)
    with contextlib.ExitStack() as stack:
        found = [*dirs, *(given.split(os.pathsep) if given else [])]
        paths = [str(_root_taken(stack, Path(d))) for d in found if Path(d).is_dir()]
        os.environ[scenario.ENV_ROOTS] = os.pathsep.join(paths)
        try:
            yield
        finally:
            if given is None:
                os.environ.pop(scenario.ENV_ROOTS, None)
            else:
                os.environ[scenario.ENV_ROOTS] = given


def _root_taken(stack: contextlib.ExitStack, root: Path) -> Path:
    """A scenario root as the command reads it: a team's `.kit/` as the intake's snapshot
    of its repository (its golden, module cache and workers too), for as long as `stack`
    lives, so that a team's scenarios, variants and modules are read from the kit's copy,
    never from the tree a pull request shaped; any other root (scenarios/, golden/,
    variants/ of a scenario author: trusted input, as the kit's own) as it is."""
    from kit.intake import snapshot

    real = Path(os.path.realpath(root))
    if real.name != ".kit":
        return real
    return stack.enter_context(snapshot.taken(real.parent)) / ".kit"


def main(argv: list[str] | None = None) -> int:
    """Entry point of the console script."""
    args = build_parser().parse_args(argv)
    if args.verbose:
        logging.basicConfig(level=logging.INFO, stream=sys.stderr,
                            format="%(asctime)s %(message)s")
    # Ctrl-C and SIGTERM (a CI timeout, `kill`) stop every run cleanly, even mid-stage.
    interrupt.install()
    limits.raise_own_open_files()
    try:
        with _roots(getattr(args, "scenarios", [])):
            return COMMANDS[args.command](args)
    except KeyboardInterrupt:
        console.print("[yellow]interrupted[/]: every service and temp dir was cleaned up")
        return 130
    except SolutionError as exc:
        console.print(f"[red]fail[/]: {t(exc)}")
        return EXIT_FAIL
    except InputError as exc:
        console.print(f"[red]error[/]: {t(exc)}")
        return EXIT_USAGE
    except KitError as exc:
        console.print(f"[red]error[/]: {t(exc)}")
        return EXIT_ERROR
    except OSError as exc:
        places = " or ".join([*([f"--out {args.out}"] if hasattr(args, "out") else []),
                              f"TMPDIR {tempfile.gettempdir()}"])
        console.print(f"[red]error[/]: {t(describe_os_error(exc, places))}")
        return EXIT_ERROR


if __name__ == "__main__":
    sys.exit(main())
