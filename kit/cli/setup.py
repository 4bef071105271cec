"""`kit doctor`, `kit setup` and `kit toolchain-key`: the toolchain, checked and installed."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from rich.table import Table

from kit import toolchain
from kit.cli.common import EXIT_ERROR, EXIT_OK, console
from kit.report.escape import terminal as t
from kit.report.show import show

if TYPE_CHECKING:
    pass



def cmd_doctor(args: argparse.Namespace) -> int:
    """Report every toolchain piece; exit non-zero naming the fix for each missing one."""
    table = Table(title="kit toolchain")
    table.add_column("piece")
    table.add_column("status")
    table.add_column("where / fix")
    missing = 0
    pieces = [(p, True) for p in toolchain.pieces()] + [(p, False) for p in optional_pieces()]
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


def optional_pieces() -> list[toolchain.Piece]:
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


def cmd_toolchain_key(args: argparse.Namespace) -> int:
    """Print the toolchain's cache key (CI caches the toolchain directory under it)."""
    from kit import settings
    from kit.toolchain import stamp

    print(settings.cache_dir() if args.path else stamp.key())
    return EXIT_OK
