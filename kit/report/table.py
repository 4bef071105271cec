"""The verdict table people read in a terminal: invariants down, faults across (every name
and summary escaped: rich would read a solution's `[...]` as markup, kit/report/escape.py)."""

from __future__ import annotations

from collections.abc import Sequence

from rich.table import Table

from kit.evaluate.matrix import Row
from kit.report.escape import terminal as t
from kit.reward import RewardSpec
from kit.run.result import RunResult

STYLE = {"pass": "[green]pass[/]", "fail": "[red]FAIL[/]", "error": "[yellow]error[/]"}


def verdict_table(results: Sequence[RunResult]) -> Table:
    """One column per run (fault), one row per invariant, plus the run outcome."""
    table = Table(title=t(f"{results[0].scenario}: {results[0].solution}"))
    table.add_column("invariant")
    for run in results:
        table.add_column(f"{t(run.fault)}\nseed {run.seed}")
    ids: list[str] = []
    for run in results:
        ids += [i for i in run.results if i not in ids]
    for inv in ids:
        table.add_row(t(inv), *(STYLE[r.results[inv].verdict] if inv in r.results else "-"
                             for r in results))
    table.add_row("[bold]outcome[/]", *(STYLE[r.outcome] for r in results))
    return table


def _number(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.2f}"


def failures(results: Sequence[RunResult]) -> list[str]:
    """One line per failed or errored invariant (and per errored run), with its summary."""
    lines = []
    for run in results:
        if run.error:
            lines.append(t(f"{run.fault}: run error: {run.error}"))
        for inv, res in run.results.items():
            if res.verdict != "pass":
                lines.append(t(f"{run.fault}: {inv} {res.verdict}: {res.summary}"))
    return lines


def agreement(results: Sequence[RunResult]) -> list[str]:
    """Per fault and invariant, how many seeds agree with the majority verdict."""
    by_fault: dict[str, list[RunResult]] = {}
    for run in results:
        by_fault.setdefault(run.fault, []).append(run)
    lines = []
    for fault, runs in by_fault.items():
        ids = sorted({i for r in runs for i in r.results})
        for inv in ids:
            verdicts = [r.results[inv].verdict if inv in r.results else "-" for r in runs]
            top = max(set(verdicts), key=verdicts.count)
            lines.append(t(f"agreement {fault} {inv}: {verdicts.count(top)}/{len(runs)} {top}"))
    return lines


def kill_matrix(rows: Sequence[Row], spec: RewardSpec, reward: bool = True) -> Table:
    """The kill matrix: each subject, its fault, what must fail, what did, per seed, and
    (unless `reward` is False: a team's scenario) the reward of the row's runs."""
    table = Table(title="kill matrix")
    for name in ("subject", "fault", "must fail", "failed", "status") + (
            ("reward",) if reward else ()):
        table.add_column(name)
    for row in rows:
        failed = sorted({i for run in row.runs for i, r in run.results.items()
                         if r.verdict == "fail"})
        statuses = row.statuses
        shown = ", ".join(sorted(set(statuses))) + (f" x{len(statuses)}" if len(statuses) > 1
                                                     else "")
        colour = "green" if row.ok else "red"
        cells = [t(row.subject), t(row.fault), t(", ".join(row.expected) or "(nothing)"),
                 t(", ".join(failed) or "(nothing)"), f"[{colour}]{shown}[/]"]
        table.add_row(*cells, *([_number(row.reward(spec))] if reward else []))
    return table
