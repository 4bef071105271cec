"""A team's own repository, checked as it is: real Terraform, the real AWS provider, moto.

The repository is order-pipeline's golden laid out as teams lay theirs out: Terraform in
infra/ with an S3 backend and a provider that names a profile, a shared config file and a
role to assume; a local module outside infra/ (../modules/dlq); a registry module served
from the module cache `kit modules vendor` filled from a (fake) `terraform init`; the
worker at the repository's root; resources bound by Terraform address, no outputs; the
scenario under .kit/. One full run grades it, and nothing of the repository changes.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

from kit import scenario as scenarios
from kit import settings, toolchain
from kit.deploy import modules
from kit.deploy.terraform import Terraform
from kit.run.pipeline import run_once
from kit.run.sandbox import Sandbox
from tests.conftest import ROOT
from tests.integration.adversary import judge, not_caught
from tests.integration.conftest import traversable_tmp

GOLDEN = ROOT / "golden" / "order-pipeline"
SHIPPED = ROOT / "scenarios" / "order-pipeline"
tmp_path = traversable_tmp("kit-team-tf-")


class Listener:
    """A loopback listener that records every connection made to it (and closes it)."""

    def __init__(self) -> None:
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        self.connections = 0
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.connections += 1
            conn.close()

    def close(self) -> None:
        """Stop listening (the thread ends at its next accept)."""
        self.sock.close()


@pytest.fixture()
def listener() -> Iterator[Listener]:
    found = Listener()
    yield found
    found.close()


def _backend(port: int) -> str:
    """An S3 backend whose every endpoint is the recording listener."""
    url = f"http://127.0.0.1:{port}"
    return f"""terraform {{
  backend "s3" {{
    bucket                      = "acme-terraform-state"
    key                         = "orders/prod.tfstate"
    region                      = "us-east-1"
    access_key                  = "AKIAEXAMPLEEXAMPLE00"
    secret_key                  = "example"
    endpoints                   = {{ s3 = "{url}", sts = "{url}", iam = "{url}" }}
    use_path_style              = true
    skip_credentials_validation = true
    skip_requesting_account_id  = true
    skip_region_validation      = true
    skip_metadata_api_check     = true
    max_retries                 = 1
  }}
}}
"""


PROVIDER = """provider "aws" {
  region              = "us-east-1"
  profile             = "prod"
  shared_config_files = ["/home/ci/.aws/config"]
  assume_role {
    role_arn     = "arn:aws:iam::111111111111:role/terraform-deployer"
    session_name = "ci"
  }
}

module "label" {
  source  = "cloudposse/label/null"
  version = "~> 0.25"
  name    = "orders"
}
"""
DLQ = """resource "aws_sqs_queue" "this" {
  name                      = "orders-dlq"
  message_retention_seconds = 1209600
  sqs_managed_sse_enabled   = true
}

output "arn" { value = aws_sqs_queue.this.arn }
"""
LABEL = """variable "name" { type = string }
output "id" { value = "acme-${var.name}" }
"""


def _registry_init(tmp_path: Path) -> Path:
    """What `terraform init` leaves for the registry module: its .terraform/modules."""
    installed = tmp_path / "user-init" / ".terraform" / "modules"
    (installed / "label").mkdir(parents=True)
    (installed / "label" / "main.tf").write_text(LABEL)
    (installed / "modules.json").write_text(json.dumps({"Modules": [
        {"Key": "", "Source": "", "Dir": "."},
        {"Key": "label", "Source": "registry.terraform.io/cloudposse/label/null",
         "Version": "0.25.0", "Dir": ".terraform/modules/label"}]}))
    return installed


def _team_repo(tmp_path: Path, port: int) -> Path:
    """order-pipeline's golden as a team's repository (module docstring)."""
    repo = tmp_path / "repo"
    (repo / "infra").mkdir(parents=True)
    for tf in GOLDEN.glob("*.tf"):
        if tf.name != "outputs.tf":  # bound by address: no outputs needed
            shutil.copy(tf, repo / "infra")
    sqs = (repo / "infra" / "sqs.tf").read_text()
    start = sqs.index('resource "aws_sqs_queue" "orders_dlq"')
    end = sqs.index('resource "aws_sqs_queue" "orders"', start + 1)
    (repo / "infra" / "sqs.tf").write_text(
        sqs[:start] + 'module "dlq" { source = "../modules/dlq" }\n\n' + sqs[end:].replace(
            "aws_sqs_queue.orders_dlq.arn", "module.dlq.arn"))
    (repo / "infra" / "backend.tf").write_text(_backend(port))
    (repo / "infra" / "providers.tf").write_text(PROVIDER)
    (repo / "modules" / "dlq").mkdir(parents=True)
    (repo / "modules" / "dlq" / "main.tf").write_text(DLQ)
    shutil.copytree(GOLDEN / "worker", repo / "worker",
                    ignore=shutil.ignore_patterns("__pycache__"))
    _team_scenario(repo)
    modules.vendor(_registry_init(tmp_path), repo / ".kit" / "modules")
    return repo


def _team_scenario(repo: Path) -> None:
    """.kit/scenarios/team-orders: order-pipeline's, as a team scenario bound by address."""
    folder = repo / ".kit" / "scenarios" / "team-orders"
    folder.mkdir(parents=True)
    data = yaml.safe_load((SHIPPED / "scenario.yaml").read_text())
    data |= {"name": "team-orders", "trust": "team",
             "terraform": {"dir": "infra", "modules": ".kit/modules"},
             "contract": {"variables": data["contract"]["variables"]},
             "resources": {
                 "queue.orders": {"address": "aws_sqs_queue.orders"},
                 "queue.dlq": {"address": "module.dlq.aws_sqs_queue.this"},
                 "role.worker": {"address": "aws_iam_role.worker"},
                 "role.producer": {"address": "aws_iam_role.producer"},
                 "database.main": {"address": "aws_db_instance.orders"}}}
    data["faults"] = {"none": data["faults"]["none"]}
    (folder / "scenario.yaml").write_text(yaml.safe_dump(data, sort_keys=False))
    shutil.copy(SHIPPED / "workload.py", folder)
    if (SHIPPED / "checks.py").exists():
        shutil.copy(SHIPPED / "checks.py", folder)


def _tree(path: Path) -> dict[str, bytes]:
    return {str(p.relative_to(path)): p.read_bytes() for p in sorted(path.rglob("*"))
            if p.is_file()}


def test_the_backend_listener_sees_terraform_when_the_kit_is_not_there(
        tmp_path: Path, listener: Listener) -> None:
    # The control: the repository's own init reaches its S3 backend (the listener), so the
    # run's zero below means the kit replaced it, not that the listener cannot see it.
    repo = _team_repo(tmp_path, listener.port)
    env = {"PATH": os.environ["PATH"], "HOME": str(tmp_path), "TF_IN_AUTOMATION": "1",
           "TF_CLI_CONFIG_FILE": str(toolchain.write_cli_config()), "CHECKPOINT_DISABLE": "1"}
    binary = settings.terraform_binary()
    assert binary
    subprocess.run([binary, "init", "-input=false", "-no-color"], cwd=repo / "infra",
                   env=env, capture_output=True, timeout=180, check=False)
    assert listener.connections > 0


def test_a_team_repository_runs_as_it_is(tmp_path: Path, listener: Listener) -> None:
    repo = _team_repo(tmp_path, listener.port)
    before = _tree(repo)
    sc = scenarios.load(repo / ".kit" / "scenarios" / "team-orders" / "scenario.yaml")
    assert sc.golden == repo.resolve()
    result = run_once(sc, sc.golden, "none", 1, tmp_path / "run")
    failed = {i: r.summary for i, r in result.results.items() if r.verdict != "pass"}
    assert (result.outcome, result.error, failed) == ("pass", None, {})
    assert listener.connections == 0, "the repository's S3 backend was contacted"
    assert _tree(repo) == before, "the repository was modified"


def test_a_registry_module_missing_from_the_cache_is_named(tmp_path: Path,
                                                           listener: Listener) -> None:
    repo = _team_repo(tmp_path, listener.port)
    shutil.rmtree(repo / ".kit" / "modules")
    sc = scenarios.load(repo / ".kit" / "scenarios" / "team-orders" / "scenario.yaml")
    result = run_once(sc, sc.golden, "none", 1, tmp_path / "run")
    assert result.outcome == "error"
    assert "module 'label' (source 'cloudposse/label/null', version '~> 0.25')" in str(
        result.error)
    assert "kit modules vendor" in str(result.error)
    assert listener.connections == 0


# An untrusted solution dressed as a team repository (tests/adversarial/order-pipeline/):
# judged here; test_adversarial.py may leave it to this file (its ELSEWHERE).
CASES = {"team-cache-in-solution"}


def test_an_untrusted_solution_cannot_bring_team_modes_rules(tmp_path: Path) -> None:
    rows = judge("order-pipeline", CASES, tmp_path)
    assert not_caught("order-pipeline", rows) == {}
    (run,) = rows[0].runs
    gated = run.results["deploy.allowed_constructs"]
    assert gated.verdict == "fail"
    said = gated.summary + json.dumps(gated.evidence)
    assert 'backend \\"s3\\"' in said and "acme/helpers/aws" in said


def test_a_declared_local_backend_keeps_the_state_in_the_copy(tmp_path: Path) -> None:
    # The gate allows an untrusted solution `backend "local"`; with a `path` of its own the
    # state would land where the kit does not read it, and without the kit's override
    # `init -backend=false` leaves it uninitialised ("Backend initialization required").
    solution = tmp_path / "solution"
    solution.mkdir()
    (solution / "main.tf").write_text(
        'terraform {\n  backend "local" { path = "elsewhere.tfstate" }\n}\n'
        'resource "aws_sqs_queue" "q" { name = "declared-local" }\n'
        'output "queue_url" { value = aws_sqs_queue.q.url }\n')
    work = tmp_path / "work"
    work.mkdir()
    with Sandbox(postgres=False, provider=True) as sandbox:
        tf = Terraform(solution, work, reattach=sandbox.provider.reattach,
                       provider_cwd=sandbox.provider.cwd)
        tf.configure(sandbox.moto.url)
        tf.init()
        tf.apply()
        assert tf.outputs()["queue_url"].endswith("/declared-local")
    assert (tf.root / "terraform.tfstate").is_file()
    assert not (tf.root / "elsewhere.tfstate").exists()


def test_an_address_the_state_does_not_hold_is_the_solutions_fail(tmp_path: Path,
                                                                  listener: Listener) -> None:
    repo = _team_repo(tmp_path, listener.port)
    path = repo / ".kit" / "scenarios" / "team-orders" / "scenario.yaml"
    data = yaml.safe_load(path.read_text())
    data["resources"]["queue.orders"] = {"address": "aws_sqs_queue.order"}
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    sc = scenarios.load(path)
    result = run_once(sc, sc.golden, "none", 1, tmp_path / "run")
    assert result.outcome == "fail", result.error
    failed = {i: r.summary for i, r in result.results.items() if r.verdict == "fail"}
    assert "deploy.applies" in failed, failed
    history = (tmp_path / "run" / "history.json").read_text()
    assert "address 'aws_sqs_queue.order' is not a managed resource instance" in history
    assert "the state has: aws_sqs_queue.orders" in history
