"""Throughput of one box: one scenario's sampled kill matrix with --jobs 1, at 2x
oversubscription (--jobs 2 x cores), at `--jobs auto`'s choice and on a local Ray cluster
(--executor ray --jobs <cores>), in one run: runs and rewards per hour, CPU-seconds per run,
the load it ran under, whether the verdicts are those of --jobs 1, and the headroom of the
timing-sensitive invariants (the tightest, read from the runs' evidence).

`make bench` runs it (part `throughput`); alone: `python bench/throughput.py [SCENARIO]`
(default order-pipeline; BENCH_THROUGHPUT_FULL=1 for the whole matrix, not its sample;
BENCH_THROUGHPUT_ROWS=N for N rows spread over it).
Writes the `throughput` block of docs/benchmarks.md and bench/throughput.json.

`python bench/throughput.py --every-scenario [SCENARIO...]` (part `oversubscription`):
each scenario's matrix with --jobs 1 and at 2x oversubscription, whether the verdicts are
the same and the tightest headroom of each; the `oversubscription` block and
bench/oversubscription.json.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kit import scenario  # noqa: E402
from kit.evaluate import runcost  # noqa: E402
from kit.evaluate.matrix import Golden, Matrix, Row, Subject, VariantOf, _Sandboxes, execute  # noqa: E402
from kit.evaluate.validate import plan_rows  # noqa: E402
from kit.run.result import RunResult  # noqa: E402
from kit.variants import load_all  # noqa: E402

# BENCH_THROUGHPUT_ROWS=N: only N rows of the plan, spread over it (golden and defects
# alike): a loaded machine's budget.
ROWS = int(os.environ.get("BENCH_THROUGHPUT_ROWS", "0"))

# (invariant, its bound's parameter, the evidence field measured against it)
TIMED = (("recovery.within_rto", "rto_seconds", "slowest_s"),
         ("recovery.rto", "rto_seconds", "recovered_in_seconds"),
         ("recovery.rpo", "rpo_seconds", "window_seconds"))


def verdicts(rows: list[Row]) -> dict[str, list[str]]:
    """'subject fault seed' -> [status, failed invariants...] of every run."""
    return {f"{row.subject} {row.fault} {run.seed}":
            [row.status(run), *sorted(i for i, r in run.results.items() if r.verdict == "fail")]
            for row in rows for run in row.runs}


def headroom(runs: list[RunResult]) -> dict[str, dict[str, Any]]:
    """Per timed invariant that passed: the smallest bound - measured over the runs."""
    out: dict[str, dict[str, Any]] = {}
    for run in runs:
        for invariant, bound, field in TIMED:
            r = run.results.get(invariant)
            if r is None or r.verdict != "pass" or r.evidence.get(field) is None:
                continue
            limit = float(r.params.get(bound) or r.evidence.get(bound) or 0)
            left = round(limit - float(r.evidence[field]), 3)
            if invariant not in out or left < out[invariant]["headroom_s"]:
                out[invariant] = {"headroom_s": left, "bound_s": limit,
                                  "measured_s": r.evidence[field],
                                  "run": f"{run.fault} seed {run.seed}"}
    return out


def plan(sc: scenario.Scenario, sample: bool) -> list[Row]:
    """The rows `kit validate [--sample]` runs (ROWS of them, every k-th, if set)."""
    rows = plan_rows(sc, load_all(sc), True, sample)
    return rows[::-(-len(rows) // ROWS)] if ROWS else rows


def one(sc: scenario.Scenario, jobs: int, executor: str, sample: bool) -> dict[str, Any]:
    """One pass of the matrix, through kit validate's runner (seed 1): wall, runs, CPU per
    run, load, verdicts, headroom."""
    load = os.getloadavg()[0]
    rows = [Row(r.subject, r.fault, r.expected) for r in plan(sc, sample)]
    subjects: dict[str, Subject] = {"golden": Golden(),
                                    **{v.name: VariantOf(v) for v in load_all(sc)}}
    with tempfile.TemporaryDirectory(prefix="kit-bench-") as out, \
            runcost.measured(f"{executor} --jobs {jobs}") as per_run:
        started = time.perf_counter()
        matrix = Matrix(sc, subjects, Path(out), _Sandboxes("moto", None),
                        lambda row, run: None)
        execute(matrix, [(row, 1) for row in rows], jobs, executor)
        wall = time.perf_counter() - started
        runs = [run for row in rows for run in row.runs]
        cost = per_run(len(runs))
    return {"executor": executor, "jobs": jobs, "seconds": round(wall, 1), "runs": len(runs),
            "runs_per_hour": round(len(runs) * 3600 / wall), "cpu_s_per_run": cost.cpu_s,
            "wall_s_per_run": cost.wall_s, "load_before": round(load, 1),
            "load_after": round(os.getloadavg()[0], 1),
            "rows_as_expected": sum(r.ok for r in rows), "rows": len(rows),
            "verdicts": verdicts(rows), "headroom": headroom(runs)}


def measure(name: str = "order-pipeline", sample: bool = True) -> dict[str, Any]:
    """Every configuration of this box on `name`'s matrix, one after the other."""
    sc, cores = scenario.load(name), runcost.cores()
    passes = {"local --jobs 1": one(sc, 1, "local", sample)}
    base = passes["local --jobs 1"]
    auto = runcost.RunCost(base["cpu_s_per_run"], base["wall_s_per_run"], base["runs"],
                           "this bench's --jobs 1 pass").jobs(cores)
    for jobs in sorted({2 * cores, auto} - {1}):
        passes[f"local --jobs {jobs}"] = one(sc, jobs, "local", sample)
    try:
        passes[f"ray --jobs {cores}"] = one(sc, cores, "ray", sample)
    except Exception as exc:  # noqa: BLE001 - Ray failing to start under load is a result too
        print(f"ray pass failed: {exc}", file=sys.stderr)
        ray_error = f"{type(exc).__name__}: {str(exc).splitlines()[0]}"
    else:
        ray_error = None
    for p in passes.values():
        p["same_verdicts_as_jobs_1"] = p["verdicts"] == base["verdicts"]
        p["rewards_per_hour_full"] = round(p["runs_per_hour"] / len(sc.faults), 1)
    return {"scenario": name, "sample": sample, "cores": cores, "faults": len(sc.faults),
            "auto_jobs": auto, "rows_limit": ROWS, "ray_error": ray_error,
            "when": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
            "passes": passes}


def oversubscribed(names: list[str], sample: bool = True) -> dict[str, Any]:
    """Each scenario's matrix (ROWS of it, if set) with --jobs 1 and at 2x oversubscription,
    one after the other: whether the verdicts are the same, and the tightest headroom."""
    cores, out = runcost.cores(), {}
    for name in names:
        sc = scenario.load(name)
        base, over = one(sc, 1, "local", sample), one(sc, 2 * cores, "local", sample)
        out[name] = {"rows": base["rows"], "same_verdicts": over["verdicts"] == base["verdicts"],
                     "differences": {k: [v, over["verdicts"].get(k)]
                                     for k, v in base["verdicts"].items()
                                     if over["verdicts"].get(k) != v},
                     "passes": {"local --jobs 1": base, f"local --jobs {2 * cores}": over}}
    return {"cores": cores, "sample": sample, "rows_limit": ROWS,
            "when": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "scenarios": out}


def _tightest(headroom: dict[str, dict[str, Any]]) -> str:
    parts = [f"{i} {h['headroom_s']} s of {h['bound_s']} s ({h['run']})"
             for i, h in sorted(headroom.items(), key=lambda x: x[1]["headroom_s"])]
    return "; ".join(parts) or "none measured"


def markdown_oversubscribed(t: dict[str, Any]) -> str:
    """The oversubscription block of docs/benchmarks.md."""
    rows = f"{t['rows_limit']} rows spread over each" if t["rows_limit"] else "each"
    over = f"local --jobs {2 * t['cores']}"
    lines = [f"Measured {t['when']} on {t['cores']} cores: {rows} scenario's "
             f"{'sampled ' if t['sample'] else ''}kill matrix with `--jobs 1`, then with "
             f"`--jobs {2 * t['cores']}` (2x oversubscription), seed 1, one after the other.",
             "", "| scenario | rows | runs/h --jobs 1 | runs/h 2x | rows as expected (1, 2x) | "
             "verdicts = --jobs 1 | tightest headroom --jobs 1 | tightest headroom 2x |",
             "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    for name, s in t["scenarios"].items():
        base, more = s["passes"]["local --jobs 1"], s["passes"][over]
        same = "yes" if s["same_verdicts"] else "NO: " + "; ".join(
            f"{k} {a} -> {b}" for k, (a, b) in s["differences"].items())
        lines.append(f"| {name} | {s['rows']} | {base['runs_per_hour']} | "
                     f"{more['runs_per_hour']} | {base['rows_as_expected']}, "
                     f"{more['rows_as_expected']} | {same} | {_tightest(base['headroom'])} | "
                     f"{_tightest(more['headroom'])} |")
    return "\n".join(lines) + "\n"


def markdown(t: dict[str, Any]) -> str:
    """The throughput block of docs/benchmarks.md."""
    what = "sampled kill matrix (`--sample`)" if t["sample"] else "whole kill matrix"
    if t.get("rows_limit"):
        what = f"{t['rows_limit']} rows spread over the {what}"
    lines = [f"Measured {t['when']} on {t['cores']} cores: `kit validate {t['scenario']}`, "
             f"its {what}, once per configuration, one after the other. A full reward is "
             f"{t['faults']} runs (every fault), a sampled one 1 run. `--jobs auto` chose "
             f"{t['auto_jobs']} from the --jobs 1 pass's CPU and wall per run.", "",
             "| executor | runs | wall s | runs/h | full rewards/h | sampled rewards/h | "
             "CPU-s/run | load (1 min) before, after | rows as expected | verdicts = --jobs 1 |",
             "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for label, p in t["passes"].items():
        lines.append(f"| {label} | {p['runs']} | {p['seconds']} | {p['runs_per_hour']} | "
                     f"{p['rewards_per_hour_full']} | {p['runs_per_hour']} | "
                     f"{p['cpu_s_per_run']} | {p['load_before']}, {p['load_after']} | "
                     f"{p['rows_as_expected']}/{p['rows']} | "
                     f"{'yes' if p['same_verdicts_as_jobs_1'] else 'NO'} |")
    if t.get("ray_error"):
        lines += ["", f"The Ray pass did not run: {t['ray_error']}"]
    base = t["passes"]["local --jobs 1"]["runs_per_hour"]
    lines += ["", "Ratios to --jobs 1: " + ", ".join(
        f"{label} {p['runs_per_hour'] / base:.2f}x" for label, p in t["passes"].items()
        if label != "local --jobs 1") + ".", "",
        "Tightest headroom of the timing-sensitive invariants (bound - measured, smallest "
        "over the passing runs):", ""]
    for label, p in t["passes"].items():
        lines.append(f"- {label}: {_tightest(p['headroom'])}")
    return "\n".join(lines) + "\n"


def main() -> None:
    """Measure, write bench/throughput.json and the docs block."""
    from bench.run import write_block

    sample = os.environ.get("BENCH_THROUGHPUT_FULL") != "1"
    if sys.argv[1:2] == ["--every-scenario"]:
        o = oversubscribed(sys.argv[2:] or scenario.known(), sample)
        (ROOT / "bench" / "oversubscription.json").write_text(json.dumps(o, indent=1) + "\n")
        write_block("oversubscription", markdown_oversubscribed(o))
        print(markdown_oversubscribed(o))
        return
    name = sys.argv[1] if len(sys.argv) > 1 else "order-pipeline"
    t = measure(name, sample)
    (ROOT / "bench" / "throughput.json").write_text(json.dumps(t, indent=1) + "\n")
    write_block("throughput", markdown(t))
    print(markdown(t))


if __name__ == "__main__":
    main()
