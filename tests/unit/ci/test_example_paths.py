"""The example PR check (examples/github/kit.yml) runs on every PR that touches what its
scenario judges: GitHub cannot compute `on.pull_request.paths`, so the list is written out,
and this checks it against the example team repository (examples/team-repo) and the
scenario the workflow names: every file under its `terraform.dir`, its `workers.cwd`, its
`.kit/` and the local modules its Terraform calls must trigger the check."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from kit import scenario
from tests.conftest import ROOT

EXAMPLE = ROOT / "examples" / "github" / "kit.yml"
TEAM = ROOT / "examples" / "team-repo"
# A local module source in the team's Terraform: `source = "../modules/queue-with-dlq"`.
LOCAL_SOURCE = re.compile(r'^\s*source\s*=\s*"(\.\.?/[^"]+)"', re.M)


def _glob(pattern: str) -> re.Pattern[str]:
    """A GitHub filter pattern as a regex: `**` any characters, `*` any but `/`, `?` one."""
    out = ""
    for token in re.findall(r"\*\*|\*|\?|[^*?]+", pattern):
        out += {"**": ".*", "*": "[^/]*", "?": "[^/]"}.get(token, re.escape(token))
    return re.compile(out + r"\Z")


def triggers(path: str, patterns: list[str]) -> bool:
    """Whether a changed file runs the workflow: the last matching pattern wins (`!` one
    excludes), as GitHub evaluates `paths`."""
    hit = False
    for pattern in patterns:
        negated = pattern.startswith("!")
        if _glob(pattern.removeprefix("!")).match(path):
            hit = not negated
    return hit


def _workflow() -> tuple[list[str], str]:
    flow = yaml.safe_load(EXAMPLE.read_text())
    on = flow[True]  # PyYAML reads `on:` as True
    kit = next(s for s in flow["jobs"]["check"]["steps"] if "checkout" not in s["uses"])
    return on["pull_request"]["paths"], kit["with"]["scenario"]


def _judged(sc: scenario.Scenario) -> list[Path]:
    """The directories of the team repository the scenario's runs depend on."""
    tf = TEAM / sc.terraform.dir
    dirs = [tf, TEAM / ".kit"] + ([TEAM / sc.workers.cwd] if sc.workers and sc.workers.cwd
                                  else [])
    for source in LOCAL_SOURCE.findall("".join(p.read_text() for p in tf.glob("*.tf"))):
        dirs.append((tf / source).resolve())
    return dirs


def test_the_glob_reading_is_githubs() -> None:
    assert triggers("app/worker/worker.py", ["app/**"])
    assert not triggers("app/worker/worker.py", ["app/*"])
    assert not triggers("app/worker/README.md", ["app/**", "!**.md"])
    assert triggers("infra/main.tf", ["**.tf"]) and not triggers("infra/x.tf", ["workers/**"])


def test_every_file_the_scenario_judges_triggers_the_check() -> None:
    patterns, name = _workflow()
    sc = scenario.load(TEAM / ".kit" / "scenarios" / name / "scenario.yaml")
    assert sc.trust == "team" and sc.workers is not None
    dirs = _judged(sc)
    assert TEAM / sc.workers.cwd in dirs and len(dirs) >= 4  # and its local module
    missed = [str(p.relative_to(TEAM)) for d in dirs for p in sorted(d.rglob("*"))
              if p.is_file() and "__pycache__" not in p.parts
              and not triggers(str(p.relative_to(TEAM)), patterns)]
    assert not missed, f"{EXAMPLE.name}'s paths miss files the check judges: {missed[:5]}"


@pytest.mark.parametrize("unrelated", ["docs/runbook.md", "README.md", "scripts/x.sh"])
def test_files_the_scenario_does_not_judge_do_not_trigger_it(unrelated: str) -> None:
    patterns, _ = _workflow()
    assert not triggers(unrelated, patterns)
