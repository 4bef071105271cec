"""action.yml's Check step, run by bash as the runner runs it, on a stand-in `kit` that
records its arguments: the command it builds from the inputs, --baseline passed only when
the installed kit has it, and kit eval's exit code handed to the Verdict step."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
import yaml

from tests.conftest import ROOT

FAKE_KIT = """#!/bin/bash
if [ "$1 $2" = "eval --help" ]; then echo "usage: kit eval ... $FAKE_USAGE"; exit 0; fi
printf '%s\\n' "$@" > "$FAKE_ARGS"
exit "$FAKE_EXIT"
"""


def _step(step_id: str) -> str:
    steps = yaml.safe_load((ROOT / "action.yml").read_text())["runs"]["steps"]
    return next(s for s in steps if s.get("id") == step_id)["run"]


def _run(tmp: Path, usage: str = "", code: int = 0, **inputs: str):
    bin_dir = tmp / "bin"
    bin_dir.mkdir(exist_ok=True)
    (bin_dir / "kit").write_text(FAKE_KIT)
    (bin_dir / "kit").chmod(0o755)
    given = {"SCENARIO": "orders", "ROOT": ".kit", "SOLUTION": "", "BASELINE": "",
             "FAULT": "", "ARGS": "", "OUT": "kit-reports", **inputs}
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}",
           "GITHUB_OUTPUT": str(tmp / "out"), "FAKE_ARGS": str(tmp / "args"),
           "FAKE_USAGE": usage, "FAKE_EXIT": str(code),
           **{f"KIT_ACTION_{k}": v for k, v in given.items()}}
    done = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c",
                           _step("check")], cwd=tmp, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return (tmp / "args").read_text().split("\n")[:-1], (tmp / "out").read_text(), done.stdout


def test_command_from_inputs(tmp_path: Path):
    (tmp_path / ".kit").mkdir()
    args, out, _ = _run(tmp_path, SOLUTION="infra dir", FAULT="db_outage",
                        ARGS="--seed 7 --repeat 2")
    assert args == ["eval", "orders", "--out", "kit-reports", "--scenarios", ".kit",
                    "--solution", "infra dir", "--fault", "db_outage", "--seed", "7",
                    "--repeat", "2"]
    assert out == "exit-code=0\n"


def test_no_scenarios_root_when_absent(tmp_path: Path):
    args, _, _ = _run(tmp_path)
    assert args == ["eval", "orders", "--out", "kit-reports"]


@pytest.mark.parametrize(("usage", "passed"), [("--baseline REF", True), ("", False)])
def test_baseline_only_when_the_kit_has_it(tmp_path: Path, usage: str, passed: bool):
    args, _, said = _run(tmp_path, usage=usage, BASELINE="origin/main")
    assert (args[-2:] == ["--baseline", "origin/main"]) is passed
    assert ("has no --baseline" in said) is not passed


def test_no_base_ref_means_no_baseline(tmp_path: Path):
    # Outside a pull request github.base_ref is empty: the default reads "origin/".
    args, _, _ = _run(tmp_path, usage="--baseline REF", BASELINE="origin/")
    assert "--baseline" not in args


def test_the_exit_code_reaches_the_verdict_step(tmp_path: Path):
    _, out, _ = _run(tmp_path, code=1)
    assert out == "exit-code=1\n"
    verdict = subprocess.run(["bash", "-c", _step("verdict")], capture_output=True,
                             env={**os.environ, "KIT_ACTION_EXIT": "1"})
    assert verdict.returncode == 1
