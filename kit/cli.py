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


def build_parser() -> argparse.ArgumentParser:
    """The argument parser for every subcommand."""
    parser = argparse.ArgumentParser(prog="kit", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("doctor", help="report the toolchain and how to fix what is missing")
    sub.add_parser("setup", help="install the toolchain into the cache (idempotent)")
    return parser


COMMANDS = {"doctor": cmd_doctor, "setup": cmd_setup}


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
