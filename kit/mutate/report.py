"""The report of `kit mutate`: a rich table, mutate.json and a markdown section (the form
of docs/benchmarks.md)."""

from __future__ import annotations

import json
from pathlib import Path

from rich.table import Table

from kit.mutate.analysis import Analysis

COLOURS = {"killed": "green", "survived": "red", "equivalent": "cyan", "error": "yellow"}


def table(analysis: Analysis) -> Table:
    """One row per mutant: id, status, what killed it (or why it is harmless)."""
    t = Table(title=f"kit mutate {analysis.scenario}: score {_score(analysis)}")
    for column in ("mutant", "status", "stage", "killed by / reason", "fault"):
        t.add_column(column)
    for j in analysis.judged:
        t.add_row(j.mutant.id, f"[{COLOURS[j.status]}]{j.status}[/]", j.stage,
                  ", ".join(j.killed_by) or j.reason, ", ".join(j.faults))
    return t


def write(analysis: Analysis, out: Path) -> tuple[Path, Path]:
    """Write mutate.json and mutate.md into `out`; their paths."""
    out.mkdir(parents=True, exist_ok=True)
    data, md = out / "mutate.json", out / "mutate.md"
    data.write_text(json.dumps(analysis.to_dict(), indent=2))
    md.write_text(markdown(analysis))
    return data, md


def markdown(analysis: Analysis) -> str:
    """A section for docs/benchmarks.md: counts, score, killers, survivors, equivalents."""
    a = analysis
    mode = ("every fault" if a.all_faults else f"under {', '.join(a.chosen)}" if a.chosen
            else f"one fault per mutant drawn from seed {a.seed}")
    if not a.all_faults and a.escalate != 0:
        mode += (", a survivor then under every other fault" if a.escalate is None
                 else f", a survivor then under up to {a.escalate} more")
    lines = [f"### kit mutate {a.scenario} ({mode})", "",
             f"{len(a.judged)} mutants: {a.count('killed')} killed, {a.count('survived')} "
             f"survived, {a.count('equivalent')} equivalent, {a.count('error')} error; "
             f"mutation score {_score(a)} (killed / (mutants - equivalents)).", "",
             "| killed by | mutants |", "|---|---|"]
    killers: dict[str, int] = {}
    for j in a.judged:
        for k in j.killed_by:
            killers[k] = killers.get(k, 0) + 1
    lines += [f"| {k} | {n} |" for k, n in sorted(killers.items(), key=lambda x: -x[1])]
    for status, title in (("survived", "Survivors"), ("equivalent", "Equivalent"),
                          ("error", "Errors")):
        chosen = [j for j in a.judged if j.status == status]
        if chosen:
            lines += ["", f"{title}:", ""]
            lines += [f"- `{j.mutant.id}`: {j.mutant.description}"
                      + (f" ({', '.join(j.faults)})" if j.faults else "")
                      + (f": {j.reason}" if j.reason else "") for j in chosen]
    return "\n".join(lines) + "\n"


def _score(a: Analysis) -> str:
    return "n/a" if a.score is None else f"{a.score:.2f}"
