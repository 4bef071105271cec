"""`make bench`: how long one evaluation takes, stage by stage, measured in one run.

Prints medians with min/max and writes bench/results.json; docs/benchmarks.md quotes them.
Repeats: BENCH_REPEATS (default 3); parts: BENCH_PARTS (default
sandbox,moto,foundation,golden). Every number comes from this machine, in this run.
"""

from __future__ import annotations

import json
import os
import platform
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kit import scenario  # noqa: E402
from kit.deploy.terraform import Terraform  # noqa: E402
from kit.run import run_once  # noqa: E402
from kit.sandbox import Sandbox  # noqa: E402
from kit.sandbox.moto import MotoServer  # noqa: E402

REPEATS = int(os.environ.get("BENCH_REPEATS", "3"))
PARTS = set(os.environ.get("BENCH_PARTS", "sandbox,moto,foundation,golden").split(","))


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
    with Sandbox():
        pass


def moto_reset_vs_restart(workdir: Path) -> dict[str, dict[str, float]]:
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

    return {"reset": reset, "restart": timed(restart)}


def apply_cycle(sandbox: Sandbox) -> dict[str, dict[str, float]]:
    """init / apply / destroy of the foundation test stack."""
    samples: dict[str, list[float]] = {"init": [], "apply": [], "destroy": []}
    for _ in range(REPEATS):
        with tempfile.TemporaryDirectory() as work:
            tf = Terraform(ROOT / "tests" / "stacks" / "foundation", Path(work))
            tf.configure(sandbox.moto.url)
            for stage, action in (("init", tf.init), ("apply", tf.apply),
                                  ("destroy", tf.destroy)):
                started = time.perf_counter()
                action()
                samples[stage].append(time.perf_counter() - started)
        sandbox.moto.reset()
    return {k: stats(v) for k, v in samples.items()}


def golden_runs(sandbox: Sandbox) -> dict[str, object]:
    """The golden order-pipeline under each fault: per-stage medians and outcomes."""
    sc = scenario.load("order-pipeline")
    out: dict[str, object] = {}
    with tempfile.TemporaryDirectory() as runs:
        for fault in sc.faults:
            stages: dict[str, list[float]] = {}
            totals, outcomes = [], []
            for seed in range(1, REPEATS + 1):
                started = time.perf_counter()
                result = run_once(sc, sc.golden, fault, seed, Path(runs) / f"{fault}-{seed}",
                                  sandbox)
                totals.append(time.perf_counter() - started)
                outcomes.append(result.outcome)
                for stage, seconds in result.timings.items():
                    stages.setdefault(stage, []).append(seconds)
            out[fault] = {"total": stats(totals), "outcomes": outcomes,
                          "stages": {k: stats(v) for k, v in stages.items()}}
    return out


def main() -> None:
    """Run every benchmark and write bench/results.json."""
    results: dict[str, object] = {
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version(),
                    "platform": platform.platform()},
        "repeats": REPEATS,
    }
    if "sandbox" in PARTS:
        results["sandbox_start_stop"] = timed(sandbox_cycle)
    if "moto" in PARTS:
        with tempfile.TemporaryDirectory() as tmp:
            moto = results["moto"] = moto_reset_vs_restart(Path(tmp))
        results["ratio_restart_over_reset"] = round(
            moto["restart"]["median"] / moto["reset"]["median"], 1)
    with Sandbox(provider=True) as sandbox:
        if "foundation" in PARTS:
            results["foundation_stack"] = apply_cycle(sandbox)
        if "golden" in PARTS:
            results["golden_order_pipeline"] = golden_runs(sandbox)
    path = ROOT / "bench" / "results.json"
    path.write_text(json.dumps(results, indent=2))
    print(json.dumps(results, indent=2))
    print(f"written: {path}")


if __name__ == "__main__":
    main()
