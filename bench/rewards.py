"""The reward spread: what each solution of each shipped scenario is paid, so a reader sees
that each defect costs what it should (kit/reward.py states the properties).

Runs the kill matrix of every scenario (one seed) and the adversarial solutions of
tests/adversarial/, and writes one `rewards-<scenario>` block of docs/benchmarks.md per
scenario. A row's reward is
the reward of its runs: the golden and the alternatives under every fault they run
under, a defect under the fault that exposes it (`kit eval --fault F` pays the same).

Usage: .venv/bin/python bench/rewards.py [SCENARIO...]   (default: every shipped scenario)
       .venv/bin/python bench/rewards.py SCENARIO --from DIR [--from DIR...]
         (the rows of `kit validate SCENARIO --out ...` directories instead of new runs; a
         later directory's row replaces an earlier one's; no adversarial rows)
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.run import write_block  # noqa: E402
from kit import scenario  # noqa: E402
from kit.evaluate.matrix import Row  # noqa: E402
from kit.evaluate.validate import validate  # noqa: E402

ADVERSARIAL = ROOT / "tests" / "adversarial"


def _merged(rows: list[Row]) -> dict[str, list[Row]]:
    """Rows by subject (the golden and the alternatives run under several faults)."""
    out: dict[str, list[Row]] = {}
    for row in rows:
        out.setdefault(row.subject, []).append(row)
    return out


def table(kind: str, rows: list[Row], spec: scenario.RewardSpec) -> list[str]:
    """One markdown line per subject: kind, faults, what failed, status, reward."""
    lines = []
    for subject, group in _merged(rows).items():
        merged = Row(subject, ", ".join(r.fault for r in group), group[0].expected,
                     [run for r in group for run in r.runs])
        failed = sorted({i for run in merged.runs for i, r in run.results.items()
                         if r.verdict == "fail"})
        reward = merged.reward(spec)
        label = "golden" if subject == "golden" else kind if group[0].expected else (
            "alternative" if kind == "variant" else kind)
        status = "as expected" if all(r.ok for r in group) else "NOT as expected"
        lines.append(f"| {subject} | {label} | {merged.fault} | "
                     f"{', '.join(failed) or '–'} | {status} | "
                     f"{'n/a' if reward is None else f'{reward:.2f}'} |")
    return lines


def _from_dirs(name: str, dirs: list[Path]) -> list[Row]:
    """The rows of earlier validate runs of `name` (later directories win)."""
    from bench.determinism import load_rows

    rows: dict[tuple[str, str], Row] = {}
    for directory in dirs:
        rows |= {(r.subject, r.fault): r for r in load_rows(directory, name)}
    return list(rows.values())


def main(names: list[str], dirs: list[Path]) -> None:
    """Run the matrices (or read them from `dirs`) and write one block per scenario."""
    ceiling = scenario.RewardSpec().ceiling
    for name in names or [n for n in scenario.known()
                          if scenario.load(n).root == scenario.ROOT]:
        sc = scenario.load(name)
        lines = ["| solution | kind | faults | failed | status | reward |",
                 "| --- | --- | --- | --- | --- | --- |"]
        with tempfile.TemporaryDirectory() as out:
            lines += table("variant", _from_dirs(name, dirs) if dirs
                           else validate(sc, Path(out), jobs=2), sc.reward)
            if (ADVERSARIAL / name).is_dir() and not dirs:
                rows = validate(sc, Path(out) / "adversarial", jobs=2, root=ADVERSARIAL,
                                golden=False)
                lines += table("adversarial", rows, sc.reward)
        source = " --from <kit validate --out>" if dirs else ""
        text = (f"`.venv/bin/python bench/rewards.py {name}{source}` (seed 1; ceiling "
                f"{sc.reward.ceiling}, the default is {ceiling}). A defect's reward is paid "
                "under the fault that exposes it.\n\n" + "\n".join(lines) + "\n")
        write_block(f"rewards-{name}", text)
        print(f"### {name}\n\n{text}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", metavar="SCENARIO")
    parser.add_argument("--from", dest="dirs", action="append", type=Path, default=[],
                        metavar="DIR", help="a `kit validate --out` directory to read")
    args = parser.parse_args()
    main(args.names, args.dirs)
