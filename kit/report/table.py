"""The verdict table people read in a terminal: invariants down, faults across."""

from __future__ import annotations

from collections.abc import Sequence

from rich.table import Table

from kit.run import RunResult

STYLE = {"pass": "[green]pass[/]", "fail": "[red]FAIL[/]", "error": "[yellow]error[/]"}


def verdict_table(results: Sequence[RunResult]) -> Table:
    """One column per run (fault), one row per invariant, plus the run outcome."""
    table = Table(title=f"{results[0].scenario}: {results[0].solution}")
    table.add_column("invariant")
    for run in results:
        table.add_column(f"{run.fault}\nseed {run.seed}")
    ids: list[str] = []
    for run in results:
        ids += [i for i in run.results if i not in ids]
    for inv in ids:
        table.add_row(inv, *(STYLE[r.results[inv].verdict] if inv in r.results else "-"
                             for r in results))
    table.add_row("[bold]outcome[/]", *(STYLE[r.outcome] for r in results))
    return table


def failures(results: Sequence[RunResult]) -> list[str]:
    """One line per failed or errored invariant (and per errored run), with its summary."""
    lines = []
    for run in results:
        if run.error:
            lines.append(f"{run.fault}: run error: {run.error}")
        for inv, res in run.results.items():
            if res.verdict != "pass":
                lines.append(f"{run.fault}: {inv} {res.verdict}: {res.summary}")
    return lines
