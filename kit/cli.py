"""The `kit` command: doctor, setup, and (as they land) eval, validate, drill, list."""

from __future__ import annotations

import argparse
import sys

from rich.console import Console
from rich.table import Table

from kit.deploy import toolchain
from kit.errors import KitError, SolutionError

console = Console(stderr=True)

EXIT_OK, EXIT_FAIL, EXIT_ERROR, EXIT_USAGE = 0, 1, 3, 2


def cmd_doctor(args: argparse.Namespace) -> int:
    """Report every toolchain piece; exit non-zero naming the fix for each missing one."""
    table = Table(title="kit toolchain")
    table.add_column("piece")
    table.add_column("status")
    table.add_column("where / fix")
    missing = 0
    for piece in toolchain.pieces():
        if piece.ok:
            table.add_row(piece.name, "[green]ok[/]", piece.found)
        else:
            missing += 1
            table.add_row(piece.name, "[red]missing[/]", f"fix: {piece.fix}")
    Console().print(table)
    if missing:
        console.print(f"[red]{missing} piece(s) missing.[/] Run the fix shown for each.")
        return EXIT_ERROR
    return EXIT_OK


def cmd_setup(args: argparse.Namespace) -> int:
    """Install whatever is missing (idempotent; a second run takes seconds)."""
    toolchain.setup(lambda message: console.print(f"[cyan]setup[/] {message}"))
    return cmd_doctor(args)


def cmd_list(args: argparse.Namespace) -> int:
    """List the scenarios with their faults and invariants."""
    from kit import scenario

    for name in scenario.known():
        sc = scenario.load(name)
        print(f"{name}: {sc.summary.strip()}")
        print(f"  faults: {', '.join(sc.faults)}")
        print(f"  invariants: {', '.join(sc.invariants)}")
    return EXIT_OK


def cmd_eval(args: argparse.Namespace) -> int:
    """Grade a solution across the scenario's faults (or one); exit code per outcome."""
    import json
    import time
    from pathlib import Path

    from kit import scenario
    from kit.checks import worst
    from kit.errors import InputError
    from kit.report.table import failures, verdict_table
    from kit.run import run_once
    from kit.sandbox import Sandbox

    sc = scenario.load(args.scenario)
    solution = Path(args.solution) if args.solution else sc.golden
    faults = [args.fault] if args.fault else list(sc.faults)
    unknown = [f for f in faults if f not in sc.faults]
    if unknown:
        raise InputError(f"unknown fault {unknown[0]!r} for {sc.name}; known: "
                         f"{', '.join(sc.faults)}")
    out = Path(args.out) / sc.name / time.strftime("%Y%m%d-%H%M%S")
    console.print(f"reproduce: kit eval {sc.name} --solution {solution} "
                  f"--seed {args.seed}" + (f" --fault {args.fault}" if args.fault else ""))
    results = []
    with Sandbox() as sandbox:
        for fault in faults:
            with console.status(f"{sc.name}: fault {fault} (seed {args.seed})"):
                results.append(run_once(sc, solution.resolve(), fault, args.seed,
                                        out / fault, sandbox))
            console.print(f"{fault}: {results[-1].outcome}")
    Console().print(verdict_table(results))
    for line in failures(results):
        console.print(line)
    outcome = worst([r.outcome for r in results])
    (out / "summary.json").write_text(json.dumps(
        {"outcome": outcome, "runs": [r.to_dict() for r in results]}, indent=2))
    console.print(f"outcome: {outcome}; results in {out}")
    return {"pass": EXIT_OK, "fail": EXIT_FAIL}.get(outcome, EXIT_ERROR)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser for every subcommand."""
    parser = argparse.ArgumentParser(prog="kit", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("doctor", help="report the toolchain and how to fix what is missing")
    sub.add_parser("setup", help="install the toolchain into the cache (idempotent)")
    sub.add_parser("list", help="list the scenarios, their faults and invariants")
    ev = sub.add_parser("eval", help="grade a solution directory across a scenario's faults")
    ev.add_argument("scenario")
    ev.add_argument("--solution", help="solution directory (default: the golden one)")
    ev.add_argument("--fault", help="run only this fault (default: every fault)")
    ev.add_argument("--seed", type=int, default=1)
    ev.add_argument("--out", default="runs", help="where run histories and results go")
    return parser


COMMANDS = {"doctor": cmd_doctor, "setup": cmd_setup, "list": cmd_list, "eval": cmd_eval}


def main(argv: list[str] | None = None) -> int:
    """Entry point of the console script."""
    args = build_parser().parse_args(argv)
    try:
        return COMMANDS[args.command](args)
    except KeyboardInterrupt:
        console.print("[yellow]interrupted[/]: every service and temp dir was cleaned up")
        return 130
    except SolutionError as exc:
        console.print(f"[red]fail[/]: {exc}")
        return EXIT_FAIL
    except KitError as exc:
        console.print(f"[red]error[/]: {exc}")
        return EXIT_ERROR


if __name__ == "__main__":
    sys.exit(main())
