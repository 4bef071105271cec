"""The fidelity bench's providers rule (bench/fidelity_scope.py): an example is in scope
with any provider the kit builds into its mirror, out of scope with any other."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.fidelity_scope import PROVIDERS, Scope
from kit import toolchain


@pytest.fixture()
def scope(tmp_path: Path) -> Scope:
    if not toolchain.catalogue_path().exists():
        pytest.skip("no provider build (its type catalogue) in the mirror: make setup")
    return Scope(tmp_path)


def _example(tmp_path: Path, main_tf: str, name: str = "ex") -> Path:
    example = tmp_path / name
    example.mkdir()
    (example / "main.tf").write_text(main_tf)
    return example


def test_the_rule_is_the_mirrors_providers() -> None:
    assert {"hashicorp/aws", "hashicorp/random", "hashicorp/time", "hashicorp/local",
            "hashicorp/tls", "hashicorp/null", "hashicorp/archive"} == set(PROVIDERS)


def test_a_utility_provider_in_the_mirror_is_in_scope_one_outside_is_not(
        scope: Scope, tmp_path: Path) -> None:
    built = _example(tmp_path, 'resource "time_static" "t" {}\n'
                               'resource "tls_private_key" "k" { algorithm = "ED25519" }\n'
                               'resource "null_resource" "n" {}\n')
    assert scope.reason_out_of_scope(built) is None
    other = _example(tmp_path, 'data "cloudinit_config" "c" {}\n', "other")
    assert str(scope.reason_out_of_scope(other)).startswith("needs another provider")
