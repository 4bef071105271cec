"""Team mode's worker side, end to end through `kit eval`: the workers run in their own
directory of the repository (workers.cwd), with a literal environment value, importing a
dependency the repository declares (installed from the package index into the cached
runtime), as the service their role trusts (workers.service): no harness principal in any
trust policy. A role that trusts another service is the solution's `fail` of
iam.required_access with its trust policy as evidence, and no worker starts."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
import yaml

from kit import scenario
from kit.errors import InputError
from kit.recorder import Recorder
from kit.sandbox.confine import Confinement
from kit.sandbox.limits import WORKLOAD
from kit.sandbox.support import support
from kit.sandbox.view import View
from kit.toolchain import deps, runtime
from kit.workload.supervisor import NoSession, Supervisor
from tests.conftest import ROOT
from tests.integration.conftest import traversable_tmp

KIT = [sys.executable, "-m", "kit.cli"]
OURS = scenario.load("order-pipeline")
NAME = "team-orders"
ECS = "ecs-tasks.amazonaws.com"
HARNESS_TRUST = "Principal = { AWS = var.harness_principal_arn }"
# What the team's worker checks as it starts (a crash loop otherwise): its directory, its
# literal environment value, and its declared dependency.
STARTUP_CHECK = '''
import os as _os

import attrs as _attrs  # app/requirements.txt, installed by the kit

assert _os.getcwd().endswith("/app"), _os.getcwd()
assert _os.environ["LOG_LEVEL"] == "INFO", _os.environ.get("LOG_LEVEL")
assert _attrs.__file__.startswith(_os.environ["PYTHONPATH"]), _attrs.__file__
'''

tmp_path = traversable_tmp("kit-team-workers-")


def _trust(service: str) -> str:
    """The roles' trust: the service, in this account only (ECS's task role example)."""
    return (f'Principal = {{ Service = "{service}" }}\n      Condition = {{ StringEquals = '
            f'{{ "aws:SourceAccount" = "123456789012" }} }}')


def _repository(root: Path, service: str) -> Path:
    """A team's repository: Terraform at its root, the worker package under app/ with its
    requirements, the roles trusting `service`."""
    repo = root / "golden" / NAME
    shutil.copytree(OURS.golden, repo, ignore=shutil.ignore_patterns("__pycache__", "worker"))
    shutil.copytree(OURS.golden / "worker", repo / "app" / "worker",
                    ignore=shutil.ignore_patterns("__pycache__"))
    init = repo / "app" / "worker" / "__init__.py"
    init.write_text(init.read_text() + STARTUP_CHECK)
    (repo / "app" / "requirements.txt").write_text("attrs\n")
    iam = repo / "iam.tf"
    assert HARNESS_TRUST in iam.read_text()
    iam.write_text(iam.read_text().replace(HARNESS_TRUST, _trust(service)))
    return repo


def _scenario(root: Path) -> None:
    data = yaml.safe_load((OURS.directory / "scenario.yaml").read_text())
    data.update(name=NAME, trust="team", faults={"none": {"kind": "none"}})
    data["workers"].update(cwd="app", service=ECS)
    data["workers"]["env"]["LOG_LEVEL"] = {"value": "INFO"}
    folder = root / "scenarios" / NAME
    folder.mkdir(parents=True)
    (folder / "scenario.yaml").write_text(yaml.safe_dump(data))
    shutil.copy(OURS.directory / "workload.py", folder / "workload.py")


def _eval(root: Path, solution: Path, out: Path) -> tuple[int, dict[str, Any]]:
    done = subprocess.run([*KIT, "eval", NAME, "--scenarios", str(root), "--solution",
                           str(solution), "--fault", "none", "--out", str(out)],
                          capture_output=True, text=True, cwd=ROOT, timeout=600)
    reports = list(out.rglob("report.json"))
    assert reports, done.stdout + done.stderr
    return done.returncode, json.loads(reports[0].read_text())


def _verdicts(report: dict[str, Any]) -> dict[str, str]:
    (run,) = report["runs"]
    return {i: r["verdict"] for i, r in run["invariants"].items()}


def test_workers_run_in_their_directory_with_their_dependencies_as_their_service(
        tmp_path: Path) -> None:
    root = tmp_path / "team"
    _scenario(root)
    repo = _repository(root, ECS)
    code, report = _eval(root, repo, tmp_path / "runs")
    verdicts = _verdicts(report)
    assert code == 0 and set(verdicts.values()) == {"pass"}, json.dumps(report)[:4000]


def test_a_role_trusting_another_service_fails_required_access_with_its_trust(
        tmp_path: Path) -> None:
    root = tmp_path / "team"
    _scenario(root)
    repo = _repository(root, "ec2.amazonaws.com")
    code, report = _eval(root, repo, tmp_path / "runs")
    (run,) = report["runs"]
    assert run["outcome"] == "fail" and not run.get("error"), json.dumps(run)[:4000]
    required = run["invariants"]["iam.required_access"]
    assert required["verdict"] == "fail"
    (missing,) = [m for m in required["evidence"]["missing"]["members"]
                  if m["role"] == "role.worker"]
    assert missing["by"] == ECS
    assert missing["trust"]["Statement"][0]["Principal"] == {"Service": "ec2.amazonaws.com"}
    assert run["invariants"]["workload.workers_start"]["verdict"] == "fail"
    history = json.loads(next((tmp_path / "runs").rglob("history.json")).read_text())
    kinds = {op["kind"] for op in history["ops"]}
    assert "session_refused" in kinds and "worker_start" not in kinds


def test_a_dependency_is_built_once_then_reused_offline(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    if runtime.python() is None:
        pytest.skip("needs the worker runtime (kit setup)")
    monkeypatch.setattr(deps, "root", lambda: tmp_path / "deps")
    app = tmp_path / "repo" / "app"
    app.mkdir(parents=True)
    (app / "requirements.txt").write_text("attrs\n")
    wanted = deps.declared(app)
    assert wanted is not None
    made = deps.ensure(wanted)  # from the package index
    # Reused with no index at all.
    monkeypatch.setenv("PIP_INDEX_URL", "http://127.0.0.1:9/simple")
    monkeypatch.setenv("PIP_FIND_LINKS", "")
    assert deps.ensure(wanted) == made
    if support().mode is None:
        pytest.skip("no sandbox on this machine: the confined import is not shown")
    # Imported by a confined worker in its directory of the workspace, read-only.
    (app / "probe.py").write_text(
        "import os, attrs\nprint(os.getcwd(), attrs.__file__)\n"
        "try:\n    open(os.path.join(os.path.dirname(attrs.__file__), 'x'), 'w')\n"
        "except OSError:\n    print('read-only')\n")
    os.chmod(tmp_path / "repo", 0o755)
    with Confinement("workload", View().show(made), WORKLOAD, network="none",
                     workspace=(tmp_path / "repo", "/workspace"),
                     env={"HOME": "/tmp", "PYTHONPATH": str(made)}) as confinement, \
            (tmp_path / "probe.log").open("wb") as log:
        proc = confinement.spawn([runtime.python() or "python", "probe.py"],
                                 env={"PATH": "/usr/bin:/bin"}, stdout=log,
                                 stderr=subprocess.STDOUT, cwd="/workspace/app")
        proc.wait(timeout=60)
    out = (tmp_path / "probe.log").read_text()
    assert out.split() == ["/workspace/app", f"{made}/attrs/__init__.py", "read-only"], out


def test_a_dependency_the_index_does_not_have_is_an_input_error(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    if runtime.python() is None:
        pytest.skip("needs the worker runtime (kit setup)")
    monkeypatch.setattr(deps, "root", lambda: tmp_path / "deps")
    (tmp_path / "requirements.txt").write_text("attrs\nkit-no-such-package-zq7\n")
    wanted = deps.declared(tmp_path)
    assert wanted is not None
    with pytest.raises(InputError) as caught:
        deps.ensure(wanted)
    text = str(caught.value)
    assert text.startswith(f"{tmp_path / 'requirements.txt'}: cannot install the workers' "
                           "dependency kit-no-such-package-zq7")
    assert "No matching distribution found for kit-no-such-package-zq7" in text
    assert not (tmp_path / "deps" / wanted.key).exists()


def test_a_worker_restart_the_role_refuses_stops_the_run_without_an_error(
        tmp_path: Path) -> None:
    if support().mode is None:
        pytest.skip("needs a sandbox")
    workspace = tmp_path / "workspace"
    workspace.mkdir()
    starts: list[str] = []

    def session_for(name: str) -> dict[str, str]:
        starts.append(name)
        if len(starts) > 1:  # the trust policy changed after the first start
            raise NoSession(name)
        return {}

    stopping = threading.Event()
    with Confinement("workload", View(), WORKLOAD, network="none",
                     workspace=(workspace, "/workspace")) as confinement:
        supervisor = Supervisor(["python", "-c", "pass"], confinement, {}, 1, session_for,
                                tmp_path, Recorder(), grace=1.0, stopping=stopping)
        supervisor.start()
        assert stopping.wait(60), "the supervisor never stopped the run"
        supervisor.stop()
    assert supervisor.refused and supervisor.error is None and not supervisor.crash_looped
    assert starts == ["worker-0#0", "worker-0#1"]
