"""`make bench`: how long one evaluation takes, stage by stage, measured in one run.

Writes bench/results.json and the generated tables of docs/benchmarks.md (between its
`bench:begin` and `bench:end` markers). Repeats: BENCH_REPEATS (default 3). Parts:
BENCH_PARTS, a comma list of sandbox, moto, init, foundation, golden, bare, validate,
gateway, throughput, oversubscription (default: all); BENCH_SCENARIOS, the scenarios
`validate` and `oversubscription` run (default: every one); BENCH_THROUGHPUT, the scenario
of `throughput` (bench/throughput.py;
default order-pipeline, its sample; BENCH_THROUGHPUT_FULL=1: its whole matrix). Every
number comes from this machine, in this run.
"""

from __future__ import annotations

import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import requests

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import gateway_overhead  # noqa: E402
from kit import scenario, settings  # noqa: E402
from kit.aws import HARNESS_ARN  # noqa: E402
from kit.deploy.hcl import parse  # noqa: E402
from kit.deploy.override import endpoint_env, write_provider_config  # noqa: E402
from kit.deploy.terraform import Terraform  # noqa: E402
from kit.evaluate.validate import validate  # noqa: E402
from kit.history import History  # noqa: E402
from kit.run.pipeline import run_once  # noqa: E402
from kit.run.sandbox import Sandbox  # noqa: E402
from kit.sandbox.moto import MotoServer  # noqa: E402
from kit.sandbox.ports import free_port  # noqa: E402
from kit.sandbox.process import ManagedProcess  # noqa: E402
from kit.toolchain import write_cli_config  # noqa: E402

REPEATS = int(os.environ.get("BENCH_REPEATS", "3"))
ALL_PARTS = ("sandbox,moto,init,foundation,golden,bare,validate,gateway,throughput,"
             "oversubscription")
PARTS = set(os.environ.get("BENCH_PARTS", ALL_PARTS).split(","))
DOC = ROOT / "docs" / "benchmarks.md"
# What a run costs besides the scenario's own clock (the workload and its recovery).
FIXED_STAGES = ("sandbox", "gate", "init", "apply", "bind", "observe", "teardown", "check")
STAGE_ORDER = ["sandbox", "gate", "init", "apply", "bind", "workload", "recover", "observe",
               "teardown", "check"]


def stats(samples: list[float]) -> dict[str, float]:
    """Median, min and max of samples (seconds)."""
    return {"median": round(statistics.median(samples), 3), "min": round(min(samples), 3),
            "max": round(max(samples), 3), "n": len(samples)}


def timed(action: Callable[[], object], n: int = REPEATS) -> dict[str, float]:
    """Time `action` n times."""
    samples = []
    for _ in range(n):
        started = time.perf_counter()
        action()
        samples.append(time.perf_counter() - started)
    return stats(samples)


def sandbox_cycle() -> None:
    with Sandbox(provider=True):
        pass


def moto_reset_vs_restart(workdir: Path) -> dict[str, Any]:
    """Emptying one moto server vs starting a fresh one."""
    server = MotoServer(workdir)
    server.wait_ready()
    try:
        reset = timed(server.reset, n=max(REPEATS, 10))
    finally:
        server.stop()

    def restart() -> None:
        fresh = MotoServer(workdir)
        fresh.wait_ready()
        fresh.stop()

    out: dict[str, Any] = {"reset": reset, "restart": timed(restart)}
    out["ratio_restart_over_reset"] = round(out["restart"]["median"] / reset["median"], 1)
    return out


def _tree_bytes(path: Path) -> int:
    """Bytes under path, not following symlinks (a linked provider costs nothing)."""
    return sum(p.lstat().st_size for p in path.rglob("*"))


def init_modes(sandbox: Sandbox) -> dict[str, Any]:
    """`terraform init` of the golden: attached to the sandbox's provider (what a run does),
    and installing from the mirror (what a terraform without the kit does)."""
    sc = scenario.load("order-pipeline")
    out: dict[str, Any] = {}
    for mode, reattach in (("reattach", sandbox.provider.reattach), ("mirror", None)):
        samples, sizes = [], []
        for _ in range(REPEATS):
            with tempfile.TemporaryDirectory(dir=sandbox.runs_dir) as work:
                tf = Terraform(sc.golden, Path(work), reattach=reattach,
                               provider_cwd=sandbox.provider.cwd if reattach else None)
                tf.configure(sandbox.moto.url)
                started = time.perf_counter()
                tf.init()
                samples.append(time.perf_counter() - started)
                sizes.append(_tree_bytes(tf.dir / ".terraform"))
        out[mode] = stats(samples) | {"dot_terraform_mb": round(max(sizes) / 2**20, 1)}
    return out


def apply_cycle(sandbox: Sandbox) -> dict[str, dict[str, float]]:
    """init / apply / destroy of the foundation test stack."""
    samples: dict[str, list[float]] = {"init": [], "apply": [], "destroy": []}
    for _ in range(REPEATS):
        with tempfile.TemporaryDirectory(dir=sandbox.runs_dir) as work:
            tf = Terraform(ROOT / "tests" / "stacks" / "foundation", Path(work),
                           reattach=sandbox.provider.reattach, provider_cwd=sandbox.provider.cwd)
            tf.configure(sandbox.moto.url)
            for stage, action in (("init", tf.init), ("apply", tf.apply),
                                  ("destroy", tf.destroy)):
                started = time.perf_counter()
                action()
                samples[stage].append(time.perf_counter() - started)
        sandbox.moto.reset()
    return {k: stats(v) for k, v in samples.items()}


def _fault_window(history: History) -> float | None:
    starts = history.of_kind("fault_start")
    ends = history.of_kind("fault_end")
    return ends[0].time - starts[0].time if starts and ends else None


def golden_runs(sandbox: Sandbox) -> dict[str, Any]:
    """The golden order-pipeline under each fault: per-stage medians and outcomes."""
    sc = scenario.load("order-pipeline")
    out: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as runs:
        for fault in sc.faults:
            stages: dict[str, list[float]] = {}
            totals, windows, outcomes = [], [], []
            for seed in range(1, REPEATS + 1):
                run_dir = Path(runs) / f"{fault}-{seed}"
                started = time.perf_counter()
                result = run_once(sc, sc.golden, fault, seed, run_dir, sandbox)
                totals.append(time.perf_counter() - started)
                outcomes.append(result.outcome)
                for stage, seconds in result.timings.items():
                    stages.setdefault(stage, []).append(seconds)
                window = _fault_window(History.load(run_dir / "history.json"))
                if window is not None:
                    windows.append(window)
            out[fault] = {"total": stats(totals), "outcomes": outcomes,
                          "fault_window": stats(windows) if windows else None,
                          "stages": {k: stats(v) for k, v in stages.items()}}
    return out


def bare_apply(workdir: Path) -> dict[str, Any]:
    """The golden order-pipeline applied by a bare terraform (it starts the provider
    itself, unconfined) to a bare moto server (no fidelity fixes, no kit), each time to an
    empty one: what a run's fixed cost is compared with. Same provider binary and waiter
    setting as the kit's, so that the difference is the kit."""
    sc = scenario.load("order-pipeline")
    port = free_port()
    moto = ManagedProcess("moto-bare", [sys.executable, "-m", "moto.server", "-p", str(port)],
                          workdir / "moto-bare.log")
    url = f"http://127.0.0.1:{port}"
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(workdir),
           "TF_CLI_CONFIG_FILE": str(write_cli_config()), "TF_IN_AUTOMATION": "1",
           "CHECKPOINT_DISABLE": "1", "KIT_EMULATOR_WAITERS": "1", **endpoint_env(url)}
    samples: dict[str, list[float]] = {"init": [], "apply": []}
    try:
        moto.wait_ready(lambda: _answers(url), 30, f"HTTP on port {port}")
        for k in range(REPEATS):
            work = workdir / f"bare-{k}"
            shutil.copytree(sc.golden, work)
            write_provider_config(work, parse(work), url)
            for stage, args in (("init", ["init", "-input=false"]),
                                ("apply", ["apply", "-auto-approve", "-input=false",
                                           f"-var=harness_principal_arn={HARNESS_ARN}"])):
                started = time.perf_counter()
                subprocess.run([settings.terraform_binary() or "terraform", *args], cwd=work,
                               env=env, check=True, capture_output=True)
                samples[stage].append(time.perf_counter() - started)
            requests.post(f"{url}/moto-api/reset", timeout=10).raise_for_status()
    finally:
        moto.stop()
    return {stage: stats(v) for stage, v in samples.items()}


def _answers(url: str) -> bool:
    return requests.get(f"{url}/moto-api/data.json", timeout=1).ok


def fixed_overhead(golden: dict[str, Any]) -> dict[str, float]:
    """A run's cost besides the scenario's clock, over every golden run (stage medians)."""
    return {stage: round(statistics.median(
        g["stages"][stage]["median"] for g in golden.values() if stage in g["stages"]), 3)
        for stage in FIXED_STAGES if any(stage in g["stages"] for g in golden.values())}


def scenario_names() -> list[str]:
    """The scenarios BENCH_SCENARIOS names, or every one."""
    wanted = os.environ.get("BENCH_SCENARIOS")
    return wanted.split(",") if wanted else scenario.known()


def validate_every_scenario() -> dict[str, Any]:
    """Each scenario's whole kill matrix with --jobs 2: wall time and rows as expected."""
    out: dict[str, Any] = {}
    for name in scenario_names():
        with tempfile.TemporaryDirectory() as runs:
            started = time.perf_counter()
            rows = validate(scenario.load(name), Path(runs), jobs=2)
            out[name] = {"seconds": round(time.perf_counter() - started, 1),
                         "runs": sum(len(r.runs) for r in rows),
                         "rows_as_expected": sum(r.ok for r in rows), "rows": len(rows)}
    return out


def _row(cells: list[object]) -> str:
    return "| " + " | ".join(str(c) for c in cells) + " |"


def _s(entry: dict[str, float] | None) -> str:
    """'median (min–max)' in seconds."""
    if not entry:
        return "–"
    digits = 3 if entry["max"] < 0.1 else 2
    return f"{entry['median']:.{digits}f} ({entry['min']:.{digits}f}–{entry['max']:.{digits}f})"


def markdown(results: dict[str, Any]) -> str:
    """The generated tables of docs/benchmarks.md."""
    m = results["machine"]
    lines = [f"Measured {results['when']} on {m['cpus']} cores, Python {m['python']}, "
             f"{m['platform']}; {results['repeats']} repeats; command: `{results['command']}`."
             " Seconds: median (min–max).", ""]
    if "golden_order_pipeline" in results:
        golden = results["golden_order_pipeline"]
        stages = [s for s in STAGE_ORDER if any(s in g["stages"] for g in golden.values())]
        lines += ["### The golden order-pipeline, one fault per run (one sandbox, reset)", "",
                  _row(["fault", "total", "fault window", *stages, "outcomes"]),
                  _row(["---"] * (len(stages) + 4))]
        for fault, g in golden.items():
            lines.append(_row([fault, _s(g["total"]), _s(g["fault_window"]),
                               *(f"{g['stages'][s]['median']:.2f}" if s in g["stages"] else "–"
                                 for s in stages), ", ".join(g["outcomes"])]))
        lines.append("")
    simple = [("sandbox start + stop (moto, Toxiproxy, PostgreSQL, provider)",
               results.get("sandbox_start_stop"))]
    if "moto" in results:
        simple += [("moto reset (between runs)", results["moto"]["reset"]),
                   ("moto restart", results["moto"]["restart"])]
    modes = {"reattach": "attached to the sandbox's provider (a run)",
             "mirror": "from the offline mirror"}
    for mode, entry in results.get("init", {}).items():
        if isinstance(entry, dict):
            simple.append((f"terraform init of the golden, {modes[mode]}; .terraform holds "
                           f"{entry['dot_terraform_mb']} MB (links)", entry))
    for stage, entry in results.get("foundation_stack", {}).items():
        simple.append((f"foundation test stack: {stage}", entry))
    lines += ["### Pieces", "", _row(["what", "seconds"]), _row(["---", "---"])]
    lines += [_row([what, _s(entry)]) for what, entry in simple if entry]
    lines.append("")
    ratios = []
    if "moto" in results:
        ratios.append(f"moto restart / reset: {results['moto']['ratio_restart_over_reset']}×")
    if "golden_order_pipeline" in results:
        fixed = fixed_overhead(results["golden_order_pipeline"])
        ratios.append(f"fixed overhead per run (median over the golden runs of "
                      f"{' + '.join(fixed)}): {sum(fixed.values()):.2f} s")
        if "bare" in results:
            bare = results["bare"]["apply"]["median"]
            ratios.append(f"bare `terraform apply` of the same golden to a bare moto server: "
                          f"{bare:.2f} s (init {results['bare']['init']['median']:.2f} s); "
                          f"the run's fixed overhead / bare apply: "
                          f"{sum(fixed.values()) / bare:.2f}×")
    for name, v in results.get("validate", {}).items():
        ratios.append(f"`kit validate {name} --jobs 2`: {v['seconds']} s ({v['runs']} runs; "
                      f"{v['rows_as_expected']}/{v['rows']} rows as expected)")
    if "gateway" in results:
        ratios += [f"gateway, {kind}: {g['direct_ms']} ms direct, {g['gateway_ms']} ms "
                   f"through it (+{g['overhead_ms']} ms, {g['ratio']}×)"
                   for kind, g in results["gateway"].items()]
    lines += ["### Ratios and totals", "", *(f"- {r}" for r in ratios)]
    return "\n".join(lines) + "\n"


def write_block(name: str, text: str, path: Path = DOC) -> None:
    """Replace the `<!-- NAME:begin -->` … `<!-- NAME:end -->` block of a document
    (docs/benchmarks.md by default)."""
    doc = path.read_text()
    begin, end = f"<!-- {name}:begin -->", f"<!-- {name}:end -->"
    new, count = re.subn(f"{re.escape(begin)}.*?{re.escape(end)}",
                         lambda _: f"{begin}\n{text}{end}", doc, flags=re.S)
    if count != 1:
        raise SystemExit(f"{path}: expected one {name}:begin/{name}:end block")
    path.write_text(new)


def main() -> None:
    """Run the benchmarks asked for; write bench/results.json and docs/benchmarks.md."""
    terraform = subprocess.run([settings.terraform_binary() or "terraform", "version"],
                               capture_output=True, text=True, check=False).stdout
    results: dict[str, Any] = {
        "when": time.strftime("%Y-%m-%d"),
        "command": "make bench" + (f" BENCH_PARTS={os.environ['BENCH_PARTS']}"
                                   if "BENCH_PARTS" in os.environ else ""),
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version(),
                    "platform": platform.platform(),
                    "terraform": terraform.splitlines()[0] if terraform else None},
        "repeats": REPEATS,
    }
    if "sandbox" in PARTS:
        results["sandbox_start_stop"] = timed(sandbox_cycle)
    if "moto" in PARTS:
        with tempfile.TemporaryDirectory() as tmp:
            results["moto"] = moto_reset_vs_restart(Path(tmp))
    if PARTS & {"init", "foundation", "golden"}:
        with Sandbox(provider=True) as sandbox:
            if "init" in PARTS:
                results["init"] = init_modes(sandbox)
            if "foundation" in PARTS:
                results["foundation_stack"] = apply_cycle(sandbox)
            if "golden" in PARTS:
                results["golden_order_pipeline"] = golden_runs(sandbox)
    if "bare" in PARTS:
        with tempfile.TemporaryDirectory() as tmp:
            results["bare"] = bare_apply(Path(tmp))
    if "validate" in PARTS:
        results["validate"] = validate_every_scenario()
    if "gateway" in PARTS:
        results["gateway"] = gateway_overhead.main(300)
    if "throughput" in PARTS:
        from bench import throughput

        results["throughput"] = throughput.measure(
            os.environ.get("BENCH_THROUGHPUT", "order-pipeline"),
            sample=os.environ.get("BENCH_THROUGHPUT_FULL") != "1")
        write_block("throughput", throughput.markdown(results["throughput"]))
    if "oversubscription" in PARTS:
        from bench import throughput

        results["oversubscription"] = throughput.oversubscribed(scenario_names())
        write_block("oversubscription",
                    throughput.markdown_oversubscribed(results["oversubscription"]))
    path = ROOT / "bench" / "results.json"
    path.write_text(json.dumps(results, indent=2) + "\n")
    write_block("bench", markdown(results))
    print(markdown(results))
    print(f"written: {path} and {DOC}")


if __name__ == "__main__":
    main()
