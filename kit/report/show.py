"""Tables on stdout that read the same in a terminal, a CI log and a pipe."""

from __future__ import annotations

from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text


def show(table: Table) -> None:
    """Print a table on stdout; off a terminal (CI logs, pipes), in ASCII and never cut."""
    console = Console()
    if console.is_terminal:
        console.print(table)
        return
    table.box = box.ASCII
    # Wide enough for the longest cell of every column, so no name is cut to "delive…".
    widths = [max([len(Text.from_markup(str(c.header)).plain)]
                  + [len(Text.from_markup(str(cell)).plain.split("\n")[0])
                     for cell in c._cells]) for c in table.columns]
    Console(width=sum(widths) + 3 * len(widths) + 4, no_color=True).print(table)
