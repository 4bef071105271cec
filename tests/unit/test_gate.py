from __future__ import annotations

import json
from pathlib import Path

import pytest

from kit.checks import run_checks
from kit.deploy import gate
from kit.deploy.hcl import parse
from kit.errors import SolutionError
from kit.history import make_history

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
