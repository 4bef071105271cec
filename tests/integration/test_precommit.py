"""The pre-commit hook (.pre-commit-hooks.yaml) run by the `pre-commit` package on a sample
repository in tmp: a commit of the golden Terraform passes in seconds, one that opens a
queue to every principal, grants a worker `sqs:*` or adds a provisioner is refused, naming
the file and line. The hook is the manifest's own entry (files, pass_filenames), in a
`repo: local` config as `language: system` on this venv's kit: `language: python` would
pip-install the kit from the index into pre-commit's own environment."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml

from kit.ci import static
from kit.scenario import MODULES, Toolchain
from tests.conftest import ROOT

KIT = Path(sys.executable).with_name("kit")
PRE_COMMIT = Path(sys.executable).with_name("pre-commit")
pytestmark = pytest.mark.skipif(not PRE_COMMIT.exists(), reason="pre-commit is not installed "
                                "(`make venv`: it is in the dev extra)")


def _git(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.com", *args],
                          cwd=repo, capture_output=True, text=True, check=False)


def _sample(tmp: Path) -> Path:
    """A repository holding the order-pipeline golden and a pre-commit config of the hook."""
    repo = tmp / "infra"
    shutil.copytree(ROOT / "golden" / "order-pipeline", repo)
    (hook,) = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())
    hook = {**hook, "language": "system", "entry": f"{KIT} {hook['entry'].removeprefix('kit ')}"}
    config = {"repos": [{"repo": "local", "hooks": [hook]}]}
    (repo / ".pre-commit-config.yaml").write_text(yaml.safe_dump(config))
    _git(repo, "init", "-q")
    _git(repo, "add", "-A")
    return repo


def _commit(repo: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PRE_COMMIT_HOME": str(repo.parent / "pre-commit-home")}
    return subprocess.run([str(PRE_COMMIT), "run", "--color", "never"], cwd=repo, env=env,
                          capture_output=True, text=True, timeout=120)


def test_manifest_is_valid():
    done = subprocess.run([str(PRE_COMMIT), "validate-manifest",
                           str(ROOT / ".pre-commit-hooks.yaml")], capture_output=True,
                          text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def test_hook_passes_golden_and_refuses_each_defect(tmp_path: Path):
    repo = _sample(tmp_path)
    started = time.monotonic()
    done = _commit(repo)
    assert done.returncode == 0, done.stdout + done.stderr
    assert time.monotonic() - started < 60
    iam = repo / "iam.tf"
    golden = iam.read_text()
    defects = [('"sqs:ReceiveMessage",', '"sqs:*",', "iam.least_privilege"),
               ("Principal = { AWS = var.harness_principal_arn }", 'Principal = { AWS = "*" }',
                "to assume the role")]
    for old, new, said in defects:
        assert old in golden
        iam.write_text(golden.replace(old, new, 1))
        _git(repo, "add", "-A")
        done = _commit(repo)
        assert done.returncode == 1 and f"{said}" in done.stdout, done.stdout
        assert "iam.tf:" in done.stdout, done.stdout
    iam.write_text(golden)
    (repo / "run.tf").write_text('resource "terraform_data" "x" {\n'
                                 '  provisioner "local-exec" { command = "id" }\n}\n')
    _git(repo, "add", "-A")
    done = _commit(repo)
    assert done.returncode == 1 and "run.tf:" in done.stdout and "provisioner" in done.stdout


def _findings(solution: Path) -> set[str]:
    return {f.check for f in static.check(solution, Toolchain().allowed_providers, MODULES)}


@pytest.mark.parametrize("scenario", ["order-pipeline", "fifo-ledger", "iam-boundary",
                                      "rds-recovery"])
def test_every_golden_is_clean(scenario: str):
    assert static.check(ROOT / "golden" / scenario, Toolchain().allowed_providers,
                        MODULES) == []


@pytest.mark.parametrize(("scenario", "variant", "check"), [
    ("order-pipeline", "worker-wildcard-policy", "iam.least_privilege"),
    ("order-pipeline", "trust-any-principal", "iam.least_privilege"),
    ("iam-boundary", "queue-open-to-all", "iam.resource_exposure"),
    ("rds-recovery", "operator-rds-star", "iam.least_privilege"),
])
def test_shipped_variants_are_caught(scenario: str, variant: str, check: str, tmp_path: Path):
    from kit import scenario as scenarios
    from kit import variants

    sc = scenarios.load(scenario)
    solution = variants.materialize(sc, variants.load(sc, sc.variants_dir / variant),
                                    tmp_path / "solution")
    assert check in _findings(solution)
