"""docs/difficulty.md: how much of each scenario a happy-path test already catches, and the
scores external agents got.

Usage:
  .venv/bin/python bench/difficulty.py            # the variants table, into docs/difficulty.md
  .venv/bin/python bench/difficulty.py scores DIR  # the agents' scores, from DIR (below)

A shipped one-defect variant is *happy path* when its defect shows in a run with no fault
injected (its variant.yaml names fault `none`): a solution its author only ran once,
without any fault, would already have shown it. It *needs a fault* when it is killed under
a fault (a crash, an outage, a duplicate delivery, a drill): only a solution built for that
failure mode avoids it. Each row also says which invariants must catch it and what the
10-seed matrix of docs/benchmarks.md (`determinism-<scenario>` block) measured for it.

Agents' results live in a folder, one directory per agent and scenario:

  DIR/<agent>/<scenario>/solution/     the agent's solution, as `kit eval --solution` takes it
  DIR/<agent>/<scenario>/report.json   `kit eval <scenario> --solution .../solution --out
                                       DIR/<agent>/<scenario>`'s report

`scores DIR` prints a table of each agent's reward per scenario (blank where it has none)
and writes it into docs/difficulty.md when DIR is the documented `results/agents`.
"""

from __future__ import annotations

import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.run import write_block  # noqa: E402
from kit import scenario  # noqa: E402
from kit.errors import InputError  # noqa: E402
from kit.variants import Variant, load_all  # noqa: E402

DOC = ROOT / "docs" / "difficulty.md"
BENCHMARKS = ROOT / "docs" / "benchmarks.md"
AGENTS = ROOT / "results" / "agents"
# A row of a determinism block: | subject | fault | must fail | statuses | agrees |
_MATRIX_ROW = re.compile(r"^\| (?P<subject>[\w-]+) \| (?P<fault>[\w-]+) \| [^|]* \| "
                         r"(?P<statuses>[^|]+) \| (?P<agrees>yes|no) \|$", re.M)


@dataclass(frozen=True)
class Row:
    """One shipped defect: its fault, the invariants that catch it, the matrix's record."""

    variant: str
    fault: str
    caught_by: tuple[str, ...]
    measured: str  # the 10-seed matrix's statuses, or "not in the matrix"

    @property
    def happy_path(self) -> bool:
        """Whether the defect shows without any fault."""
        return self.fault == "none"


def matrix(text: str, name: str) -> dict[tuple[str, str], str]:
    """The (subject, fault) rows of the `determinism-<name>` block of `text`: statuses."""
    block = re.search(rf"<!-- determinism-{re.escape(name)}:begin -->(.*?)"
                      rf"<!-- determinism-{re.escape(name)}:end -->", text, re.S)
    rows = _MATRIX_ROW.finditer(block.group(1)) if block else ()
    return {(m["subject"], m["fault"]): m["statuses"].strip() +
            ("" if m["agrees"] == "yes" else ", seeds disagree") for m in rows}


def rows(variants: list[Variant], measured: dict[tuple[str, str], str]) -> list[Row]:
    """The defects among `variants` (alternatives are not defects), by name."""
    return [Row(v.name, v.fault or "", v.must_fail,
                measured.get((v.name, v.fault or ""), "not in the matrix"))
            for v in sorted(variants, key=lambda v: v.name) if not v.must_pass]


def share(found: list[Row]) -> str:
    """"n of N (p %)" happy-path defects."""
    happy = sum(r.happy_path for r in found)
    return f"{happy} of {len(found)} ({100 * happy / len(found):.0f} %)" if found else "none"


def variants_table(names: list[str], benchmarks: str) -> str:
    """The summary over every scenario, then one table per scenario."""
    per = {name: rows(load_all(scenario.load(name)), matrix(benchmarks, name))
           for name in names}
    lines = ["| scenario | defects | happy path (shows without a fault) | needs a fault |",
             "| --- | --- | --- | --- |"]
    for name, found in per.items():
        happy = sum(r.happy_path for r in found)
        lines.append(f"| {name} | {len(found)} | {share(found)} | {len(found) - happy} |")
    everything = [r for found in per.values() for r in found]
    lines.append(f"| **all** | {len(everything)} | **{share(everything)}** | "
                 f"{len(everything) - sum(r.happy_path for r in everything)} |")
    for name, found in per.items():
        lines += ["", f"### {name}", "",
                  "| variant | fault | kind | caught by | 10-seed matrix |",
                  "| --- | --- | --- | --- | --- |"]
        lines += [f"| {r.variant} | {r.fault} | "
                  f"{'happy path' if r.happy_path else 'needs a fault'} | "
                  f"{', '.join(r.caught_by)} | {r.measured} |" for r in found]
    return "\n".join(lines) + "\n"


def scores(folder: Path) -> dict[str, dict[str, float | None]]:
    """Each agent's reward per scenario from `folder`'s reports (None: no reward, the
    report's runs were the kit's errors); bad input is an InputError naming the file."""
    if not folder.is_dir():
        raise InputError(f"{folder}: not a directory of agents' results")
    found: dict[str, dict[str, float | None]] = {}
    for report in sorted(folder.glob("*/*/report.json")):
        agent, name = report.parent.parent.name, report.parent.name
        try:
            doc = json.loads(report.read_text())
        except (OSError, json.JSONDecodeError) as exc:
            raise InputError(f"{report}: not a kit eval report: {exc}") from None
        if not isinstance(doc, dict) or doc.get("scenario") != name:
            raise InputError(f"{report}: field scenario is {doc.get('scenario')!r}, not the "
                             f"directory's {name!r}" if isinstance(doc, dict) else
                             f"{report}: not a kit eval report (not a JSON object)")
        reward = doc.get("reward")
        if reward is not None and not isinstance(reward, int | float):
            raise InputError(f"{report}: field reward is {reward!r}, not a number")
        if not (report.parent / "solution").is_dir():
            raise InputError(f"{report.parent / 'solution'}: missing (the solution the "
                             "report graded)")
        found.setdefault(agent, {})[name] = None if reward is None else float(reward)
    return found


def scores_table(found: dict[str, dict[str, float | None]]) -> str:
    """Agents as rows, scenarios as columns, and each scenario's mean."""
    if not found:
        return "No agent results recorded yet.\n"
    names = sorted({n for per in found.values() for n in per})
    lines = [f"| agent | {' | '.join(names)} |", "| --- |" + " --- |" * len(names)]
    for agent, per in sorted(found.items()):
        cells = ["" if n not in per else "error" if per[n] is None else f"{per[n]:.2f}"
                 for n in names]
        lines.append(f"| {agent} | {' | '.join(cells)} |")
    means = []
    for n in names:
        got = [per[n] for per in found.values() if per.get(n) is not None]
        means.append(f"{sum(got) / len(got):.2f}" if got else "")  # type: ignore[arg-type]
    lines.append(f"| **mean** | {' | '.join(means)} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> int:
    """Write the variants table, or print (and for results/agents write) the scores."""
    try:
        if argv[:1] == ["scores"] and len(argv) == 2:
            folder = Path(argv[1])
            text = scores_table(scores(folder))
            if folder.resolve() == AGENTS:
                write_block("agent-scores", text, DOC)
        elif not argv:
            text = variants_table(scenario.known(), BENCHMARKS.read_text())
            write_block("difficulty", text, DOC)
        else:
            print(__doc__.split("\n\n")[1], file=sys.stderr)
            return 2
    except InputError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(text, end="")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
