"""The gate of a team repository: backends and registry modules pass (replaced, from the
cache), everything else is refused as for an untrusted solution, which keeps every rule."""

from __future__ import annotations

from pathlib import Path

from kit.deploy import gate
from kit.deploy.hcl import parse
from kit.deploy.override import BACKEND_FILE, has_backend, write_backend_override

ALLOWED = ("hashicorp/aws", "hashicorp/random")
INFRA = """
terraform {
  backend "s3" {
    bucket = "team-state"
    key    = "prod/terraform.tfstate"
  }
}
provider "aws" { profile = "prod" }
module "queue" { source = "../modules/queue" }
module "sqs" {
  source  = "terraform-aws-modules/sqs/aws"
  version = "~> 4.0"
}
"""
QUEUE = 'resource "aws_sqs_queue" "q" { name = "q" }\n'


def _repo(tmp_path: Path, infra: str = INFRA, extra: dict[str, str] | None = None) -> Path:
    repo = tmp_path / "repo"
    for name, text in {"infra/main.tf": infra, "modules/queue/main.tf": QUEUE,
                       **(extra or {})}.items():
        (repo / name).parent.mkdir(parents=True, exist_ok=True)
        (repo / name).write_text(text)
    return repo


def _check(repo: Path, team: bool) -> list[str]:
    return [str(v) for v in gate.check(parse(repo), ALLOWED, repo.parent / "kit-modules",
                                       team=team, root_module=Path("infra"))]


def test_team_mode_lets_a_backend_and_a_registry_module_through(tmp_path: Path) -> None:
    assert _check(_repo(tmp_path), team=True) == []


def test_untrusted_mode_refuses_both_as_before(tmp_path: Path) -> None:
    found = _check(_repo(tmp_path), team=False)
    assert any('backend "s3"' in v and "only the local backend" in v for v in found)
    assert any('module "sqs" source "terraform-aws-modules/sqs/aws"' in v for v in found)
    assert not any('module "queue"' in v for v in found)  # inside the solution: allowed


def test_team_mode_still_refuses_what_runs_commands_or_reaches_out(tmp_path: Path) -> None:
    infra = INFRA + """
resource "aws_sqs_queue" "p" {
  provisioner "local-exec" { command = "id" }
}
data "external" "e" { program = ["id"] }
data "terraform_remote_state" "net" {
  backend = "s3"
}
terraform {
  cloud { organization = "acme" }
}
"""
    found = _check(_repo(tmp_path, infra), team=True)
    assert any('provisioner "local-exec"' in v for v in found)
    assert any('data "external"' in v for v in found)
    assert any('data "terraform_remote_state" backend "s3"' in v for v in found)
    assert not any("cloud" in v for v in found)  # replaced like a backend


def test_team_mode_refuses_a_local_module_outside_the_repository(tmp_path: Path) -> None:
    infra = 'module "out" { source = "../../elsewhere" }\n'
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "main.tf").write_text(QUEUE)
    found = _check(_repo(tmp_path, infra), team=True)
    assert found and all('module "out"' in v for v in found)


def test_the_module_tree_is_followed_from_the_root_module(tmp_path: Path) -> None:
    # modules/queue calls a module through a path that leaves the repository from there.
    repo = _repo(tmp_path, extra={"modules/queue/nested.tf":
                                  'module "deep" { source = "../../../x" }\n'})
    found = _check(repo, team=True)
    assert any('module "deep"' in v for v in found)


def test_a_backend_is_replaced_only_where_the_root_module_has_one(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    config = parse(repo)
    assert has_backend(config, Path("infra"))
    written = write_backend_override(repo, config, Path("infra"))
    assert written == repo / "infra" / BACKEND_FILE
    assert 'backend "local" {}' in written.read_text()
    plain = _repo(tmp_path / "plain", infra='provider "aws" {}\n')
    assert write_backend_override(plain, parse(plain), Path("infra")) is None
    cloud = _repo(tmp_path / "cloud", infra='terraform {\n  cloud { organization = "a" }\n}\n')
    assert has_backend(parse(cloud), Path("infra"))
