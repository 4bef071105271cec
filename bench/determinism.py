"""Summarise a `kit validate --repeat N` output directory: is the kill matrix identical
across seeds? Writes the `determinism-<scenario>` block of docs/benchmarks.md.

Usage:
  .venv/bin/kit validate SCENARIO --repeat 10 --jobs 2 --out runs/det
  .venv/bin/python bench/determinism.py runs/det/SCENARIO/validate-<stamp> [COMMAND]
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.run import write_block  # noqa: E402
from kit import scenario  # noqa: E402
from kit.checks import CheckResult  # noqa: E402
from kit.evaluate.matrix import Row  # noqa: E402
from kit.evaluate.validate import plan_rows  # noqa: E402
from kit.run.result import RunResult  # noqa: E402
from kit.variants import load_all  # noqa: E402


def load_rows(out: Path, scenario_name: str) -> list[Row]:
    """The matrix rows of a validate output directory, with every run read back."""
    sc = scenario.load(scenario_name)
    rows = plan_rows(sc, load_all(sc))
    for row in rows:
        for path in sorted((out / row.subject).glob(f"{row.fault}-seed*/result.json")):
            data = json.loads(path.read_text())
            row.runs.append(RunResult(
                data["scenario"], data["solution"], data["fault"], data["seed"],
                data["outcome"], {k: CheckResult(**v) for k, v in data["invariants"].items()},
                data["error"]))
        row.runs.sort(key=lambda r: r.seed)
    return [row for row in rows if row.runs]


def markdown(rows: list[Row], source: str) -> str:
    """The kill matrix with, per row, the statuses over seeds and whether verdicts agree."""
    runs = sum(len(r.runs) for r in rows)
    seeds = sorted({run.seed for r in rows for run in r.runs})
    lines = [f"`{source}`: {len(rows)} rows, {runs} runs, seeds {seeds[0]}–{seeds[-1]}.", "",
             "| subject | fault | must fail | statuses | every invariant agrees |",
             "| --- | --- | --- | --- | --- |"]
    for row in rows:
        statuses = sorted(set(row.statuses))
        counted = ", ".join(f"{s} ×{row.statuses.count(s)}" for s in statuses)
        lines.append(f"| {row.subject} | {row.fault} | {', '.join(row.expected) or '–'} | "
                     f"{counted} | {'no' if row.flaky else 'yes'} |")
    good = sum(r.ok and not r.flaky for r in rows)
    lines += ["", f"{good}/{len(rows)} rows as expected and identical across seeds."]
    return "\n".join(lines) + "\n"


def main(out: Path, command: str | None) -> None:
    """Print the summary and write it into docs/benchmarks.md (`command`: how the runs were
    made, when not the usual one)."""
    name = out.resolve().parent.name  # runs/<scenario>/validate-<stamp>
    rows = load_rows(out, name)
    text = markdown(rows, command or f"kit validate {name} --repeat "
                                     f"{max(len(r.runs) for r in rows)} --jobs 2")
    write_block(f"determinism-{name}", text)
    print(text)


if __name__ == "__main__":
    main(Path(sys.argv[1]), sys.argv[2] if len(sys.argv) > 2 else None)
