"""The registry-module cache: vendored from an init's .terraform/modules, seeded into a
run's copy, a missing or mismatched module an input error naming it and the fix."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from kit import cli
from kit.deploy import modules
from kit.deploy.hcl import parse
from kit.errors import InputError

SQS = "registry.terraform.io/terraform-aws-modules/sqs/aws"
INFRA = """
module "orders" {
  source  = "terraform-aws-modules/sqs/aws"
  version = "~> 4.0"
}
module "app" { source = "../modules/app" }
"""
APP = """
module "events" {
  source  = "terraform-aws-modules/sns/aws"
  version = "6.1.0"
}
"""


def _init_result(tmp_path: Path) -> Path:
    """A root module as `terraform init` leaves it: modules.json and module directories
    (a registry module with a submodule of its own, a local module, a nested registry one)."""
    base = tmp_path / "user" / "infra"
    installed = base / ".terraform" / "modules"
    for rel in ("orders/main.tf", "orders/modules/queue/main.tf", "app.events/main.tf"):
        (installed / rel).parent.mkdir(parents=True, exist_ok=True)
        (installed / rel).write_text(f"# {rel}\n")
    records = [
        {"Key": "", "Source": "", "Dir": "."},
        {"Key": "orders", "Source": SQS, "Version": "4.2.1", "Dir": ".terraform/modules/orders"},
        {"Key": "orders.queue", "Source": "./modules/queue",
         "Dir": ".terraform/modules/orders/modules/queue"},
        {"Key": "app", "Source": "../modules/app", "Dir": "../modules/app"},
        {"Key": "app.events", "Source": "registry.terraform.io/terraform-aws-modules/sns/aws",
         "Version": "6.1.0", "Dir": ".terraform/modules/app.events"},
    ]
    (installed / "modules.json").write_text(json.dumps({"Modules": records}))
    return installed


def _repo(tmp_path: Path, infra: str = INFRA) -> Path:
    repo = tmp_path / "repo"
    for rel, text in (("infra/main.tf", infra), ("modules/app/main.tf", APP)):
        (repo / rel).parent.mkdir(parents=True, exist_ok=True)
        (repo / rel).write_text(text)
    return repo


def test_vendor_copies_the_remote_modules_only(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    added = modules.vendor(_init_result(tmp_path), cache)
    assert [r.key for r in added] == ["orders", "app.events"]
    assert (cache / "orders" / "modules" / "queue" / "main.tf").is_file()
    assert not (cache / "app").exists()  # local: resolved from the repository itself
    manifest = modules.read_manifest(cache / "modules.json")
    assert {r.key: r.dir for r in manifest} == {"orders": "orders", "app.events": "app.events"}
    modules.vendor(_init_result(tmp_path), cache)  # again: replaced, not doubled
    assert len(modules.read_manifest(cache / "modules.json")) == 2


def test_remote_calls_are_keyed_by_their_call_path(tmp_path: Path) -> None:
    calls = modules.remote_calls(parse(_repo(tmp_path)), Path("infra"))
    assert [(c.key, c.version) for c in calls] == [("orders", "~> 4.0"),
                                                   ("app.events", "6.1.0")]


def test_seed_installs_them_where_terraform_init_looks(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    modules.vendor(_init_result(tmp_path), cache)
    repo = _repo(tmp_path)
    calls = modules.remote_calls(parse(repo), Path("infra"))
    modules.seed(cache, calls, repo / "infra")
    installed = repo / "infra" / ".terraform" / "modules"
    manifest = {r.key: r for r in modules.read_manifest(installed / "modules.json")}
    assert set(manifest) == {"", "orders", "app.events"}
    assert manifest["orders"].dir == ".terraform/modules/orders"
    assert manifest["orders"].version == "4.2.1"
    assert (installed / "orders" / "main.tf").read_text() == "# orders/main.tf\n"


@pytest.mark.parametrize("infra, problem", [
    (INFRA.replace("~> 4.0", "~> 5.0"), "the cache holds version '4.2.1'"),
    (INFRA.replace("sqs/aws", "sqs/google"), "the cache holds"),
    (INFRA.replace('"orders"', '"renamed"'), "it is not in the cache"),
])
def test_a_module_the_cache_cannot_serve_is_named_with_the_fix(tmp_path: Path, infra: str,
                                                               problem: str) -> None:
    cache = tmp_path / "cache"
    modules.vendor(_init_result(tmp_path), cache)
    repo = _repo(tmp_path, infra)
    with pytest.raises(InputError) as caught:
        modules.seed(cache, modules.remote_calls(parse(repo), Path("infra")), repo / "infra")
    message = str(caught.value)
    assert problem in message and "infra/main.tf" in message
    assert "source 'terraform-aws-modules/sqs/" in message
    assert f"kit modules vendor --from <root module>/.terraform/modules --to {cache}" in message


def test_without_a_cache_a_registry_module_says_to_make_one(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    with pytest.raises(InputError, match="names no module cache: set terraform.modules"):
        modules.seed(None, modules.remote_calls(parse(repo), Path("infra")), repo / "infra")


@pytest.mark.parametrize("version, constraint, ok", [
    ("4.2.1", "~> 4.0", True), ("5.0.0", "~> 4.0", False), ("4.2.1", "~> 4.2.0", True),
    ("4.3.0", "~> 4.2.0", False), ("4.2.1", ">= 4.0, < 4.2", False),
    ("4.2.1", "4.2.1", True), ("4.2.1", "!= 4.2.1", False), ("4.2.1-beta", ">= 1.0", False),
    ("4.2.1", "> 4.2", True), ("4.2.1", "<= 4.2.1", True), ("4.2.1", "latest", False),
])
def test_version_constraints_as_terraform_reads_them(version: str, constraint: str,
                                                     ok: bool) -> None:
    assert modules.satisfies(version, constraint) is ok


def test_malformed_manifests_name_the_file_and_field(tmp_path: Path) -> None:
    installed = tmp_path / ".terraform" / "modules"
    with pytest.raises(InputError, match="no modules.json in it"):
        modules.vendor(installed, tmp_path / "cache")
    installed.mkdir(parents=True)
    (installed / "modules.json").write_text('{"Modules": [{"Key": 1}]}')
    with pytest.raises(InputError, match=r"modules.json: field Modules\[0\]"):
        modules.vendor(installed, tmp_path / "cache")


def test_the_cli_vendors_into_the_cache(tmp_path: Path) -> None:
    installed = _init_result(tmp_path)
    cache = tmp_path / "repo" / ".kit" / "modules"
    assert cli.main(["modules", "vendor", "--from", str(installed), "--to", str(cache)]) == 0
    assert (cache / "modules.json").is_file()
    assert cli.main(["modules", "vendor", "--from", str(tmp_path), "--to", str(cache)]) == 2


def test_preflight_names_a_missing_module_before_any_run(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    with pytest.raises(InputError, match="module 'orders'"):
        modules.preflight(tmp_path / "empty-cache", repo, Path("infra"))
    cache = tmp_path / "cache"
    modules.vendor(_init_result(tmp_path), cache)
    modules.preflight(cache, repo, Path("infra"))  # served: no error
    (repo / "infra" / "broken.tf").write_text("resource {{{\n")
    modules.preflight(tmp_path / "empty-cache", repo, Path("infra"))  # the run judges it


def test_a_cache_record_without_its_directory_is_named(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    modules.vendor(_init_result(tmp_path), cache)
    manifest = json.loads((cache / "modules.json").read_text())
    manifest["Modules"][0]["Dir"] = "../../etc"
    (cache / "modules.json").write_text(json.dumps(manifest))
    repo = _repo(tmp_path)
    with pytest.raises(InputError, match="its directory '../../etc' is not a directory inside"):
        modules.seed(cache, modules.remote_calls(parse(repo), Path("infra")), repo / "infra")


def test_vendor_names_a_recorded_module_that_is_not_installed(tmp_path: Path) -> None:
    installed = _init_result(tmp_path)
    shutil.rmtree(installed / "orders")
    with pytest.raises(InputError, match="module 'orders' is recorded at"):
        modules.vendor(installed, tmp_path / "cache")
