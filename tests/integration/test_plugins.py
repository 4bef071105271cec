"""A team's own scenario, outside the repository: made with `kit new-scenario`, filled in,
and graded with `--scenarios`, with nothing of it under kit/ or scenarios/."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import yaml

from kit import scenario
from tests.conftest import ROOT

KIT = [sys.executable, "-m", "kit.cli"]
OURS = scenario.load("order-pipeline")


def _fill_in(root: Path, name: str) -> None:
    """What a team writes into the skeleton: here, order-pipeline's contract under a new
    name, its workload module, its golden solution and one of its variants."""
    data = yaml.safe_load((OURS.directory / "scenario.yaml").read_text())
    data["name"] = name
    data["faults"] = {k: v for k, v in data["faults"].items() if k in ("none", "db_outage")}
    (root / "scenarios" / name / "scenario.yaml").write_text(yaml.safe_dump(data))
    shutil.copy(OURS.directory / "workload.py", root / "scenarios" / name / "workload.py")
    shutil.rmtree(root / "golden" / name)
    shutil.copytree(OURS.golden, root / "golden" / name,
                    ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(OURS.variants_dir / "balance-not-idempotent",
                    root / "variants" / name / "balance-not-idempotent")


def test_a_scenario_outside_the_repository_is_evaluated(tmp_path: Path) -> None:
    root, out = tmp_path / "team", tmp_path / "runs"
    made = subprocess.run([*KIT, "new-scenario", "team-orders", "--root", str(root)],
                          capture_output=True, text=True, cwd=ROOT, check=True)
    assert "scenario.yaml" in made.stdout
    _fill_in(root, "team-orders")
    done = subprocess.run([*KIT, "eval", "team-orders", "--scenarios", str(root), "--fault",
                           "none", "--out", str(out)], capture_output=True, text=True,
                          cwd=ROOT, timeout=300)
    assert done.returncode == 0, done.stderr
    report = json.loads(next(out.rglob("report.json")).read_text())
    assert report["scenario"] == "team-orders" and report["reward"] == 1.0
    assert f"--scenarios {root}" in report["command"]
