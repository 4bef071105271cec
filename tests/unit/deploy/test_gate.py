from __future__ import annotations

import functools
import json
import os
from pathlib import Path

import pytest

from kit import scenario
from kit.checks import run_checks
from kit.deploy import gate, intake
from kit.deploy.hcl import not_copied, parse
from kit.errors import SolutionError
from kit.history import make_history
from kit.variants import Variant, load_all, materialize
from tests.conftest import ROOT

ALLOWED = ("hashicorp/aws", "hashicorp/random")


def _check(tmp_path: Path, files: dict[str, str]) -> list[str]:
    sol = tmp_path / "sol"
    for name, text in files.items():
        (sol / name).parent.mkdir(parents=True, exist_ok=True)
        (sol / name).write_text(text)
    return [str(v) for v in gate.check(parse(sol), ALLOWED, tmp_path / "modules")]


CLEAN = """
terraform {
  backend "local" {}
  required_providers {
    aws    = { source = "hashicorp/aws", version = "~> 6.0" }
    random = { source = "hashicorp/random" }
  }
}
provider "aws" { region = "us-east-1" }
resource "aws_sqs_queue" "q" { name = "q" }
resource "random_password" "p" { length = 20 }
resource "terraform_data" "marker" { input = "x" }
data "aws_iam_policy_document" "d" {
  statement {
    actions   = ["sqs:SendMessage"]
    resources = ["*"]
  }
}
module "local" { source = "./mod" }
"""


def test_clean_solution_passes(tmp_path: Path) -> None:
    assert _check(tmp_path, {"main.tf": CLEAN, "mod/main.tf": 'variable "x" {}\n'}) == []


@pytest.mark.parametrize("text, expected", [
    ('resource "aws_sqs_queue" "q" {\n  name = "q"\n  provisioner "local-exec" {\n'
     '    command = "curl -X POST localhost:5000/moto-api/reset"\n  }\n}\n',
     'main.tf:3: resource "aws_sqs_queue" "q": provisioner "local-exec"'),
    ('resource "null_resource" "n" {\n  provisioner "remote-exec" { inline = ["x"] }\n}\n',
     'main.tf:1: resource "null_resource": its provider is not allowed'),
    ('data "external" "e" {\n  program = ["sh", "-c", "echo {}"]\n}\n',
     'main.tf:1: data "external": runs a program on the host'),
    ('data "http" "h" { url = "http://127.0.0.1:5000/moto-api/reset" }\n',
     'main.tf:1: data "http": reaches the network'),
    ('terraform {\n  backend "s3" { bucket = "b" }\n}\n',
     'main.tf:2: backend "s3": only the local backend is allowed'),
    ('terraform {\n  required_providers {\n    null = { source = "hashicorp/null" }\n  }\n}\n',
     "main.tf:3: provider hashicorp/null"),
    ('module "m" { source = "git::https://example.invalid/m.git" }\n',
     'main.tf:1: module "m" source "git::https://example.invalid/m.git"'),
    ('module "m" { source = "../../etc" }\n', 'main.tf:1: module "m" source "../../etc"'),
])
def test_each_forbidden_construct_is_reported_with_file_and_line(
        tmp_path: Path, text: str, expected: str) -> None:
    found = _check(tmp_path, {"main.tf": text})
    assert any(v.startswith(expected) for v in found), found


def test_json_syntax_files_are_gated_too(tmp_path: Path) -> None:
    doc = {"resource": {"aws_sqs_queue": {"q": {"name": "q", "provisioner": [
        {"local-exec": {"command": "id"}}]}}}}
    found = _check(tmp_path, {"extra.tf.json": json.dumps(doc)})
    assert any("provisioner" in v and v.startswith("extra.tf.json") for v in found), found


def test_files_in_subfolders_are_gated(tmp_path: Path) -> None:
    found = _check(tmp_path, {"main.tf": 'module "m" { source = "./mod" }\n',
                              "mod/evil.tf": 'data "external" "e" { program = ["id"] }\n'})
    assert found == ['mod/evil.tf:1: data "external": runs a program on the host']


def test_unparseable_hcl_is_the_solutions_fault(tmp_path: Path) -> None:
    with pytest.raises(SolutionError, match="main.tf"):
        _check(tmp_path, {"main.tf": 'resource "aws_sqs_queue" "q" {\n'})


def test_checker_fails_on_violations_and_errors_without_a_gate_op() -> None:
    bad = make_history([{"index": 0, "time": 0, "process": "kit", "kind": "gate",
                         "value": {"violations": ["main.tf:3: provisioner"]}}])
    good = make_history([{"index": 0, "time": 0, "process": "kit", "kind": "gate",
                          "value": {"violations": []}}])
    inv = {"deploy.allowed_constructs": {}}
    assert run_checks(bad, inv)["deploy.allowed_constructs"].verdict == "fail"
    assert "main.tf:3" in run_checks(bad, inv)["deploy.allowed_constructs"].summary
    assert run_checks(good, inv)["deploy.allowed_constructs"].verdict == "pass"
    assert run_checks(make_history([]), inv)["deploy.allowed_constructs"].verdict == "error"


# --- the directory, before any file is read (kit/deploy/intake.py) -----------------------

def _refused(sol: Path) -> list[str]:
    return [str(v) for v in intake.refusals(sol)]


def _solution(tmp_path: Path) -> Path:
    sol = tmp_path / "sol"
    sol.mkdir()
    (sol / "main.tf").write_text(CLEAN)
    return sol


@pytest.mark.parametrize("target", [
    str(ROOT / "golden" / "order-pipeline" / "worker"),  # absolute, to the golden
    "../../../golden/order-pipeline/worker",  # relative, out of the solution
])
def test_a_link_out_of_the_solution_is_refused(tmp_path: Path, target: str) -> None:
    sol = _solution(tmp_path)
    (sol / "worker").symlink_to(target)
    assert _refused(sol) == [f"worker: symbolic link to {target}: links out of the solution "
                             "are not followed"]


def test_a_link_to_a_root_only_file_or_read_by_file_is_refused(tmp_path: Path) -> None:
    secret = tmp_path / "secret"
    secret.write_text("the host's secret\n")
    secret.chmod(0o600)
    sol = _solution(tmp_path)
    (sol / "leak.txt").symlink_to(secret)
    (sol / "app").mkdir()
    (sol / "app" / "shadow").symlink_to("/etc/shadow")
    assert [v.split(":")[0] for v in _refused(sol)] == ["leak.txt", "app/shadow"]


def test_a_chain_that_passes_outside_is_refused_even_when_it_ends_inside(
        tmp_path: Path) -> None:
    sol = _solution(tmp_path)
    (tmp_path / "hop").symlink_to(sol / "main.tf")
    (sol / "again.tf").symlink_to(tmp_path / "hop")
    assert len(_refused(sol)) == 1


def test_links_that_stay_inside_are_taken(tmp_path: Path) -> None:
    sol = _solution(tmp_path)
    (sol / "mod").mkdir()
    (sol / "mod" / "main.tf").write_text('variable "x" {}\n')
    (sol / "alias").symlink_to("mod")
    (sol / "mod" / "up").symlink_to("../main.tf")
    (sol / "dangling").symlink_to("nowhere")
    assert _refused(sol) == []


def test_a_link_that_would_resolve_elsewhere_in_the_copy_is_refused(tmp_path: Path) -> None:
    # Both end inside the solution here; in the kit's copy (another directory, another
    # name) the absolute one leads back to the original and the climbing one to nowhere
    # or to what the kit put beside the copy.
    sol = _solution(tmp_path)
    (sol / "mod").mkdir()
    (sol / "abs.tf").symlink_to(sol / "main.tf")
    (sol / "mod" / "climb.tf").symlink_to("../../sol/main.tf")
    found = _refused(sol)
    assert [v.split(":")[0] for v in found] == ["abs.tf", "mod/climb.tf"]
    assert all("another file in the kit's copy" in v for v in found)


def test_a_link_into_what_the_kit_does_not_copy_is_refused(tmp_path: Path) -> None:
    sol = _solution(tmp_path)
    (sol / ".terraform" / "x").mkdir(parents=True)
    (sol / "m").symlink_to(".terraform/x")
    assert _refused(sol) == ["m: symbolic link to .terraform/x: it leads into a part of the "
                             "solution the kit does not copy"]


@pytest.mark.parametrize("name", [
    "region_override.tf", "x_override.tf.json", "override.tf", "override.tf.json",
    "prod.tfvars", "terraform.tfvars", "terraform.tfvars.json", "a.auto.tfvars",
    "a.auto.tfvars.json", ".terraformrc", "terraform.rc"])
def test_each_override_and_configuration_file_is_refused(tmp_path: Path, name: str) -> None:
    sol = _solution(tmp_path)
    (sol / "sub").mkdir()
    (sol / "sub" / name).write_text("")
    assert [v.split(": ")[0:2] for v in _refused(sol)] == [[f"sub/{name}", f"file {name}"]]


def test_an_implied_provider_mirror_is_refused(tmp_path: Path) -> None:
    sol = _solution(tmp_path)
    (sol / "terraform.d" / "plugins").mkdir(parents=True)
    assert _refused(sol)[0].startswith("terraform.d: directory terraform.d: an implied")


def test_a_link_named_like_an_override_is_refused(tmp_path: Path) -> None:
    sol = _solution(tmp_path)
    (sol / "a_override.tf").symlink_to("main.tf")
    assert _refused(sol)[0].startswith("a_override.tf: symbolic link to main.tf")


def test_a_special_file_is_refused(tmp_path: Path) -> None:
    sol = _solution(tmp_path)
    os.mkfifo(sol / "pipe")
    assert _refused(sol) == ["pipe: special file: a solution holds regular files, "
                             "directories and links only"]


@pytest.mark.parametrize("name", [".terraform/modules/modules.json", ".terraform.lock.hcl",
                                  "terraform.tfstate", "terraform.tfstate.backup",
                                  "terraform.tfstate.d/dev/terraform.tfstate"])
def test_what_an_earlier_run_left_is_neutralised_not_refused(
        tmp_path: Path, name: str) -> None:
    sol = _solution(tmp_path)
    (sol / name).parent.mkdir(parents=True, exist_ok=True)
    (sol / name).write_text('resource "terraform_data" "x" {\n')  # not even parsed
    assert _refused(sol) == []
    assert [d.path.name for d in parse(sol).documents] == ["main.tf"]
    assert not_copied(Path(name).parts[0])


# --- every block form, every module Terraform loads ---------------------------------------

PROVISIONER = {"local-exec": {"command": "true"}}


@pytest.mark.parametrize("resource", [
    {"terraform_data": {"adv": [{"provisioner": PROVISIONER}]}},  # labels -> array
    {"terraform_data": [{"adv": {"provisioner": [PROVISIONER]}}]},  # type -> array
    {"terraform_data": {"adv": {"provisioner": {"local-exec": [{"command": "true"}]}}}},
    {"terraform_data": {"adv": {"provisioner": [{"local-exec": [{"command": "true"}]}]}}},
])
def test_json_provisioners_in_every_block_form(tmp_path: Path, resource: dict) -> None:
    found = _check(tmp_path, {"main.tf": CLEAN, "adv.tf.json": json.dumps(
        {"resource": [resource]})})
    assert [v for v in found if "adv.tf.json" in v] == [
        'adv.tf.json:1: resource "terraform_data" "adv": provisioner "local-exec": '
        "provisioners run commands on the host"], found


@pytest.mark.parametrize("doc, expected", [
    ({"data": {"external": [{"e": {"program": ["true"]}}]}}, 'data "external"'),
    ({"data": [{"http": {"h": [{"url": "x"}]}}]}, 'data "http"'),
    ({"check": {"c": [{"data": {"external": {"e": {"program": ["true"]}}}}]}},
     'check "c": data "external"'),
    ({"module": {"m": [{"source": "git::https://example.invalid/m.git"}]}}, 'module "m"'),
    ({"terraform": [{"backend": [{"s3": [{"bucket": "b"}]}]}]}, 'backend "s3"'),
    ({"provider": {"null": [{}]}}, 'provider "null"'),
    ({"removed": [{"from": "terraform_data.x", "provisioner": [PROVISIONER]}]},
     'removed: provisioner "local-exec"'),
    ({"data": {"terraform_remote_state": {"s": [{"backend": "http", "config": {}}]}}},
     'data "terraform_remote_state" backend "http"'),
    ({"ephemeral": {"random_password": {"p": {}}, "tls_private_key": {"k": {}}}},
     'ephemeral "tls_private_key"'),
])
def test_json_blocks_given_as_arrays_are_gated(tmp_path: Path, doc: dict, expected: str
                                               ) -> None:
    found = _check(tmp_path, {"x.tf.json": json.dumps(doc)})
    assert len(found) == 1 and f": {expected}" in found[0], found


def test_data_sources_scoped_in_a_check_block_are_gated(tmp_path: Path) -> None:
    text = ('check "c" {\n  data "external" "e" { program = ["true"] }\n'
            '  assert {\n    condition     = true\n    error_message = "x"\n  }\n}\n')
    assert _check(tmp_path, {"main.tf": text}) == [
        'main.tf:2: check "c": data "external": runs a program on the host']


def test_a_removed_blocks_destroy_provisioner_is_gated(tmp_path: Path) -> None:
    text = ('removed {\n  from = terraform_data.x\n  provisioner "local-exec" {\n'
            '    when    = destroy\n    command = "true"\n  }\n}\n')
    assert _check(tmp_path, {"main.tf": text}) == [
        'main.tf:3: removed: provisioner "local-exec": provisioners run commands on the host']


def test_a_module_in_what_the_kit_does_not_copy_is_refused(tmp_path: Path) -> None:
    found = _check(tmp_path, {"main.tf": 'module "m" { source = "./.terraform/modules/m" }\n',
                              ".terraform/modules/m/main.tf": "not parsed {"})
    assert found and all('module "m"' in v for v in found), found


def test_module_sources_resolve_from_the_callers_directory_as_terraform_names_it(
        tmp_path: Path) -> None:
    # ./a is a link to sub/deep: Terraform joins ../../x to "a", i.e. ../x, out of the
    # solution; read at the link's target, sub/deep/../../x would be the solution's x.
    files = {"main.tf": 'module "a" { source = "./a" }\n',
             "sub/deep/main.tf": 'module "x" { source = "../../x" }\n',
             "x/main.tf": 'variable "v" {}\n'}
    sol = tmp_path / "sol"
    for name, text in files.items():
        (sol / name).parent.mkdir(parents=True, exist_ok=True)
        (sol / name).write_text(text)
    (sol / "a").symlink_to("sub/deep")
    found = [str(v) for v in gate.check(parse(sol), ALLOWED, tmp_path / "modules")]
    assert found == [f'sub/deep/main.tf:1: module "x" source "../../x": Terraform loads '
                     f"{tmp_path / 'x'}: {gate.LOCAL_ONLY}"], found


def test_nested_local_modules_and_the_kits_modules_are_allowed(tmp_path: Path) -> None:
    (tmp_path / "modules" / "decoy").mkdir(parents=True)
    assert _check(tmp_path, {
        "main.tf": 'module "a" { source = "./a" }\n',
        "a/main.tf": 'module "b" { source = "../b" }\n'
                     'module "k" { source = "../../modules/decoy" }\n',
        "b/main.tf": 'variable "v" {}\n'}) == []


INTAKE_CASES = {  # tests/adversarial/order-pipeline/<case>: what the gate names first
    "symlink-golden-worker": "worker/__main__.py: symbolic link to ",
    "symlink-root-file": "worker/settings.txt: symbolic link to /etc/shadow",
    "file-leak-precondition": "leak.txt: symbolic link to /etc/shadow",
    "override-region": "zzz_region_override.tf: file zzz_region_override.tf",
    "tfjson-array-provisioner": 'adv.tf.json:6: resource "terraform_data" "adv": provisioner',
    "module-link-into-dot-terraform": "adv: symbolic link to .terraform/modules/adv",
    "check-block-external": 'checks.tf:2: check "probe": data "external"',
}


@functools.cache
def _adversarial() -> tuple[scenario.Scenario, dict[str, Variant]]:
    sc = scenario.load("order-pipeline")
    return sc, {v.name: v for v in load_all(sc, ROOT / "tests" / "adversarial")}


@pytest.mark.parametrize("name", sorted(INTAKE_CASES))
def test_each_intake_case_is_refused_at_the_gate(tmp_path: Path, name: str) -> None:
    sc, cases = _adversarial()
    case = cases[name]
    sol = materialize(sc, case, tmp_path / "solution")  # git apply makes the links
    if "symbolic link" in INTAKE_CASES[name]:
        assert any(p.is_symlink() for p in sol.rglob("*"))
    found = _refused(sol) or [str(v) for v in gate.check(
        parse(sol), sc.toolchain.allowed_providers, sc.modules_dir)]
    assert found and found[0].startswith(INTAKE_CASES[name]), found
