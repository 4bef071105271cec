"""action.yml and the adopters' example workflow pass actionlint (built from the Go module
proxy into the toolchain by `kit setup`: its PyPI package downloads the binary at build
time, which an offline machine cannot). actionlint reads a composite action only where a
workflow uses it, so the action is linted twice: through a workflow that uses it as `./`
with the example's inputs, and as a reusable workflow made of its steps (`on:
workflow_call` with its inputs), so that every expression of its steps is checked too.
Each check is shown to fail on a broken copy."""

from __future__ import annotations

import copy
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

from kit import toolchain
from tests.conftest import ROOT

ACTIONLINT = toolchain.actionlint_binary()
pytestmark = pytest.mark.skipif(ACTIONLINT is None, reason="actionlint is not in the kit's "
                                "toolchain: run `kit setup` (it builds it from the Go proxy)")
EXAMPLE = ROOT / "examples" / "github" / "kit.yml"


def _lint(repo: Path) -> subprocess.CompletedProcess[str]:
    """actionlint over every workflow of `repo` (a git repository)."""
    return subprocess.run([str(ACTIONLINT), "-no-color"], cwd=repo, capture_output=True,
                          text=True, timeout=60)


def _repo(tmp: Path, action: dict[str, Any], workflows: dict[str, dict[str, Any]]) -> Path:
    """A repository holding the action at its root and the given workflows."""
    subprocess.run(["git", "init", "-q", str(tmp)], check=True)
    (tmp / "action.yml").write_text(yaml.safe_dump(action, sort_keys=False))
    (tmp / ".github" / "workflows").mkdir(parents=True)
    for name, flow in workflows.items():
        (tmp / ".github" / "workflows" / name).write_text(yaml.safe_dump(flow, sort_keys=False))
    return tmp


def _using_it(example: dict[str, Any]) -> dict[str, Any]:
    """The example workflow with its kit step pointing at the local action (`./`)."""
    flow = copy.deepcopy(example)
    for step in flow["jobs"]["check"]["steps"]:
        if "kit" in step.get("uses", "") and "checkout" not in step["uses"]:
            step["uses"] = "./"
    return flow


def _as_reusable(action: dict[str, Any]) -> dict[str, Any]:
    """A reusable workflow with the action's inputs and steps."""
    inputs = {name: {"type": "string", **({"required": True} if spec.get("required")
                                           else {"default": str(spec.get("default", ""))})}
              for name, spec in action["inputs"].items()}
    return {"on": {"workflow_call": {"inputs": inputs}},
            "jobs": {"action": {"runs-on": "ubuntu-24.04", "steps": action["runs"]["steps"]}}}


def _load() -> tuple[dict[str, Any], dict[str, Any]]:
    # PyYAML reads `on:` as True; write it back as the key GitHub reads.
    example = yaml.safe_load(EXAMPLE.read_text())
    example["on"] = example.pop(True)
    return yaml.safe_load((ROOT / "action.yml").read_text()), example


def test_example_workflow_passes_actionlint():
    done = subprocess.run([str(ACTIONLINT), "-no-color", str(EXAMPLE)], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr


def test_action_passes_actionlint(tmp_path: Path):
    action, example = _load()
    repo = _repo(tmp_path, action, {"kit.yml": _using_it(example),
                                    "steps.yml": _as_reusable(action)})
    done = _lint(repo)
    assert done.returncode == 0, done.stdout + done.stderr


def test_actionlint_catches_a_broken_action(tmp_path: Path):
    action, example = _load()
    broken = copy.deepcopy(action)
    check = next(s for s in broken["runs"]["steps"] if s.get("id") == "check")
    check["env"]["KIT_OUT"] = "${{ inputs.no_such_input }}"
    del broken["inputs"]["name"]  # the example's workflow does not pass it; a step reads it
    flow = _using_it(example)
    flow["jobs"]["check"]["steps"][-1]["with"]["no-such-input"] = "x"
    done = _lint(_repo(tmp_path, broken, {"kit.yml": flow, "steps.yml": _as_reusable(broken)}))
    assert done.returncode == 1
    assert "no_such_input" in done.stdout and '"no-such-input" is not defined' in done.stdout


def test_the_canary_workflow_passes_actionlint_and_never_blocks(tmp_path: Path) -> None:
    text = (ROOT / "examples" / "github" / "canary.yml").read_text()
    flow = yaml.safe_load(text)
    assert flow["jobs"]["canary"]["continue-on-error"] is True
    assert any(step.get("run") == "make canary" for step in flow["jobs"]["canary"]["steps"])
    for name, body in (("good", text), ("broken", text.replace("timeout-minutes: 90",
                                                                "timeout-minutes: ninety"))):
        repo = tmp_path / name
        subprocess.run(["git", "init", "-q", str(repo)], check=True)
        (repo / ".github" / "workflows").mkdir(parents=True)
        (repo / ".github" / "workflows" / "canary.yml").write_text(body)
        done = _lint(repo)
        assert (done.returncode == 0) == (name == "good"), done.stdout
