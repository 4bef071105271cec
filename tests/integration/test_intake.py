"""The solution's intake against real runs and real Terraform: links out of the solution
are refused before anything reads it, and never followed by the kit's copy; and the gate
reads the configuration as Terraform does (a differential test against Terraform's own view:
`terraform providers`, and the `configuration` of `terraform show -json` of a plan).

Terraform runs the way the kit runs it (kit/deploy/terraform.py `Terraform`: confined, as
the deploy user); it only plans, and the fixtures' one program is `true`.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kit import scenario
from kit.deploy import gate, intake
from kit.deploy.hcl import parse
from kit.deploy.terraform import DeployFailure, Terraform
from kit.variants import load_all, materialize
from tests.conftest import ROOT
from tests.integration.adversary import ADVERSARIAL
from tests.integration.conftest import traversable_tmp

SCENARIO = scenario.load("order-pipeline")
KIT = [sys.executable, "-m", "kit.cli"]
ALLOWED = SCENARIO.toolchain.allowed_providers
BUILTIN = "terraform.io/builtin/terraform"


tmp_path = traversable_tmp("intake-")


LEAK = """
output "leak" {
  value = "x"
  precondition {
    condition     = aws_sqs_queue.orders.url == ""
    error_message = file("leak.txt")
  }
}
"""


def test_links_out_are_refused_before_anything_reads_them(tmp_path: Path) -> None:
    secret = tmp_path / "secret"
    marker = f"intake-secret-{uuid.uuid4().hex}"
    secret.write_text(marker + "\n")
    secret.chmod(0o600)  # root-only: the solution's own user may not read it
    solution = tmp_path / "solution"
    shutil.copytree(SCENARIO.golden, solution)
    shutil.rmtree(solution / "worker")
    golden_worker = SCENARIO.golden.resolve() / "worker"
    (solution / "worker").symlink_to(golden_worker)  # absolute, to the golden
    relative = os.path.relpath(golden_worker / "store.py", solution / "lib")
    (solution / "lib").mkdir()
    (solution / "lib" / "store.py").symlink_to(relative)  # relative, to the golden
    (solution / "leak.txt").symlink_to(secret)
    (solution / "leak.tf").write_text(LEAK)  # file() through the link
    out = tmp_path / "runs"
    done = subprocess.run([*KIT, "eval", "order-pipeline", "--solution", str(solution),
                           "--fault", "none", "--out", str(out)],
                          capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert done.returncode == 1, done.stderr
    report = json.loads(next(out.rglob("report.json")).read_text())
    gated = report["runs"][0]["invariants"]["deploy.allowed_constructs"]
    assert gated["verdict"] == "fail"
    assert gated["summary"].startswith("3 forbidden construct(s)"), gated["summary"]
    for name in ("worker", "lib/store.py", "leak.txt"):
        assert f"{name}: symbolic link to " in json.dumps(gated), gated
    written = [p for p in out.rglob("*") if p.is_file()]
    assert {"report.json", "junit.xml", "summary.md", "result.json", "history.json"} <= {
        p.name for p in written}
    assert [p for p in written if marker in p.read_text(errors="replace")] == []
    assert marker not in done.stdout + done.stderr


def test_the_copy_keeps_links_as_links_and_leaves_out_what_an_earlier_run_left(
        tmp_path: Path) -> None:
    secret = tmp_path / "secret"
    secret.write_text("not for the deploy user\n")
    secret.chmod(0o600)
    solution = tmp_path / "solution"
    (solution / "mod").mkdir(parents=True)
    (solution / "main.tf").write_text('module "m" { source = "./alias" }\n')
    (solution / "mod" / "main.tf").write_text('variable "v" { default = 1 }\n')
    (solution / "alias").symlink_to("mod")
    (solution / "late").symlink_to(secret)  # as if made after the gate looked
    for left in (".terraform/modules/modules.json", ".terraform.lock.hcl",
                 "terraform.tfstate", "terraform.tfstate.backup"):
        (solution / left).parent.mkdir(parents=True, exist_ok=True)
        (solution / left).write_text("{}")
    tf = Terraform(solution, tmp_path / "work")
    assert os.readlink(tf.dir / "alias") == "mod"
    assert os.readlink(tf.dir / "late") == str(secret)  # a link, not the file's content
    assert sorted(p.name for p in tf.dir.iterdir()) == ["alias", "late", "main.tf", "mod"]
    tf.init()  # the inside link is a module Terraform loads; the outside one is not there


# --- the differential: the gate's reading against Terraform's ------------------------------

PROVISIONER = {"local-exec": {"command": "true"}}
FORMS = {
    "main.tf": 'module "a" {\n  source = "./a"\n}\n',
    "forms.tf.json": json.dumps({"resource": [
        {"terraform_data": {"labels_to_array": [{"provisioner": PROVISIONER}]}},
        {"terraform_data": [{"type_to_array": {"provisioner": [PROVISIONER]}}]},
        {"terraform_data": {"kind_to_array": {"provisioner": {
            "local-exec": [{"command": "true"}]}}}},
        {"terraform_data": {"clean": {"input": "x"}}}]}),
    "a/main.tf": 'module "b" {\n  source = "../b"\n}\n',
    "b/main.tf": 'resource "terraform_data" "nested" {\n'
                 '  provisioner "local-exec" {\n    command = "true"\n  }\n}\n',
}
CHECKS = {
    "main.tf": 'resource "terraform_data" "x" {}\n'
               'check "hcl" {\n  data "external" "e" {\n    program = ["true"]\n  }\n'
               '  assert {\n    condition     = data.external.e.result != null\n'
               '    error_message = "never"\n  }\n}\n',
    "c.tf.json": json.dumps({"check": {"json": [{
        "data": {"http": [{"h": {"url": "http://127.0.0.1:9/"}}]},
        "assert": {"condition": "${data.http.h.status_code == 200}",
                   "error_message": "never"}}]}}),
}


def _fixture(tmp_path: Path, name: str, files: dict[str, str]) -> Path:
    root = tmp_path / name
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return root


def _case(tmp_path: Path, name: str) -> Path:
    """What an adversarial case adds to the golden, links dereferenced (as the kit's copy
    once did, so as Terraform would read the solution as given)."""
    variant = next(v for v in load_all(SCENARIO, ADVERSARIAL) if v.name == name)
    whole = materialize(SCENARIO, variant, tmp_path / f"{name}-whole")
    golden = {p.relative_to(SCENARIO.golden) for p in SCENARIO.golden.rglob("*")}
    added = tmp_path / name
    shutil.copytree(whole, added, ignore=lambda d, names: [
        n for n in names if (Path(d) / n).relative_to(whole) in golden and
        (Path(d) / n).is_file()])
    (added / "kit_fixture.tf").write_text("")  # the kit takes a directory with a *.tf file
    return added


def _terraform_sees(solution: Path, work: Path) -> set[str]:
    """Forbidden things in Terraform's own view: providers besides the allowed ones, and
    every provisioner of every module (when init could install the providers)."""
    tf = Terraform(solution, work)
    try:
        tf.init()
        installed = True
    except DeployFailure:  # a provider the kit's mirror does not have
        installed = False
    allowed = {*ALLOWED, BUILTIN}
    seen = {f"provider {p}" for p in tf.required_providers() if p not in allowed}
    if installed:
        seen |= set(_provisioners(tf.planned_configuration().get("root_module", {})))
    return seen


def _provisioners(module: dict[str, Any]) -> Iterator[str]:
    for resource in module.get("resources", []):
        for provisioner in resource.get("provisioners", []):
            yield f'{resource["type"]}.{resource["name"]}: provisioner {provisioner["type"]}'
    for call in module.get("module_calls", {}).values():
        yield from _provisioners(call.get("module", {}))


def _gate_sees(solution: Path) -> set[str]:
    """The same, in the gate's view of the same directory."""
    seen = set()
    for violation in gate.check(parse(solution), ALLOWED, SCENARIO.modules_dir):
        found = re.fullmatch(r'resource "(\w+)" "(\w+)": provisioner "([\w-]+)"',
                             violation.construct)
        if found:
            seen.add(f"{found[1]}.{found[2]}: provisioner {found[3]}")
        found = re.search(r'data "([a-z0-9]+)', violation.construct)
        if found:
            seen.add(f"provider hashicorp/{found[1].split('_')[0]}")
    return seen


@pytest.mark.parametrize("source", ["forms", "checks", "tfjson-array-provisioner",
                                    "module-link-into-dot-terraform", "check-block-external"])
def test_the_gate_sees_what_terraform_sees(tmp_path: Path, source: str) -> None:
    if source in ("forms", "checks"):
        solution = _fixture(tmp_path, source, FORMS if source == "forms" else CHECKS)
    else:
        solution = _case(tmp_path, source)
    terraform = _terraform_sees(solution, tmp_path / "work")
    assert terraform, "a fixture Terraform finds nothing forbidden in tests nothing"
    assert _gate_sees(solution) == terraform
    assert intake.refusals(solution) == []  # what differs here is read, not refused
