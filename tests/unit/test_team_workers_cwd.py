"""Team mode's workers.cwd: the command runs in that directory of the workspace, inside
the sandbox and where no sandbox can be made (the unconfined fallback maps it onto the
workspace's host copy)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from kit import scenario
from kit.errors import InputError
from kit.run import bind
from kit.sandbox import cgroup
from kit.sandbox.confine import Confinement
from kit.sandbox.limits import WORKLOAD
from kit.sandbox.view import View

GOOD = scenario.SCENARIOS / "order-pipeline" / "scenario.yaml"


def _load(tmp_path: Path, **workers: str) -> scenario.Scenario:
    data = yaml.safe_load(GOOD.read_text())
    data["trust"] = "team"
    data["workers"].update(workers)
    (tmp_path / "scenario.yaml").write_text(yaml.safe_dump(data))
    (tmp_path / "workload.py").write_text(GOOD.with_name("workload.py").read_text())
    return scenario.load(tmp_path / "scenario.yaml")


def test_the_sandbox_cwd_is_the_workspace_or_its_workers_directory(tmp_path: Path) -> None:
    assert bind.worker_cwd(scenario.load(GOOD)) == bind.WORKSPACE
    assert bind.worker_cwd(_load(tmp_path, cwd="app/worker")) == f"{bind.WORKSPACE}/app/worker"


def test_the_workers_directory_must_be_in_the_solution(tmp_path: Path) -> None:
    team = _load(tmp_path, cwd="app")
    repo = tmp_path / "repo"
    (repo / "app").mkdir(parents=True)
    assert team.workers_dir(repo) == repo / "app"
    (repo / "app").rmdir()
    (repo / "app").symlink_to(tmp_path)  # a directory, but outside the solution
    with pytest.raises(InputError, match="field workers.cwd: 'app' is not a directory of"):
        team.workers_dir(repo)


@pytest.mark.parametrize("cwd, expected", [
    ("/workspace/app", "app"), ("/workspace", ""), ("/workspaces", ""), (None, "")])
def test_unconfined_a_cwd_in_the_workspace_is_its_host_copy(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cwd: str | None,
        expected: str) -> None:
    monkeypatch.setattr(cgroup.Group, "create", classmethod(lambda cls, limits: None))
    monkeypatch.setattr(Confinement, "confined", property(lambda self: False))
    workspace = tmp_path / "copy"
    (workspace / "app").mkdir(parents=True)
    log = tmp_path / "out"
    with Confinement("workload", View(), WORKLOAD, workspace=(workspace, "/workspace")
                     ) as confinement, log.open("w") as out:
        proc = confinement.spawn([sys.executable, "-c", "import os; print(os.getcwd())"],
                                 env={}, stdout=out, stderr=subprocess.STDOUT, cwd=cwd)
        proc.wait(timeout=30)
    assert log.read_text().strip() == str(workspace / expected).rstrip("/")
