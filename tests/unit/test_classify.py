from __future__ import annotations

import json
from pathlib import Path

import pytest

from kit.deploy import toolchain
from kit.deploy.command import Completed
from kit.deploy.terraform import DeployFailure, EnvironmentFailure, classify

NO_MATCH = """
Error: Failed to query available provider packages

Could not retrieve the list of available versions for provider hashicorp/aws: no
available releases match the given constraints ~> 5.0
"""


def _failed(stderr: str, code: int | None = 1) -> Completed:
    return Completed(("terraform",), code, "", stderr)


@pytest.fixture()
def mirror(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("KIT_CACHE", str(tmp_path))
    for version in ("6.48.0", "3.39.0"):
        path = toolchain.provider_path("aws", version)
        path.parent.mkdir(parents=True)
        path.write_text("")
    return tmp_path


def test_missing_provider_version_is_the_environments_and_names_what_the_mirror_has(
        mirror: Path) -> None:
    failure = classify("init", _failed(NO_MATCH))
    assert isinstance(failure, EnvironmentFailure)
    assert "3.39.0, 6.48.0" in str(failure)
    assert "~> 5.0" in str(failure)


def test_unknown_provider_is_the_solutions(mirror: Path) -> None:
    text = NO_MATCH.replace("hashicorp/aws", "hashicorp/google")
    assert isinstance(classify("init", _failed(text)), DeployFailure)


def test_hcl_error_is_the_solutions_with_terraforms_text_verbatim() -> None:
    text = 'Error: Unclosed configuration block\n\n  on main.tf line 1, in resource "x" "y":'
    failure = classify("init", _failed(text))
    assert isinstance(failure, DeployFailure)
    assert failure.diagnostics == text


def test_apply_error_is_the_solutions() -> None:
    text = "Error: creating SQS Queue (q): InvalidParameterValue: bad"
    assert isinstance(classify("apply", _failed(text)), DeployFailure)


def test_timeout_is_the_environments() -> None:
    assert isinstance(classify("apply", _failed("", code=None)), EnvironmentFailure)


def test_emulator_gone_is_the_environments() -> None:
    text = 'Error: reading SQS Queue: dial tcp 127.0.0.1:40001: connect: connection refused'
    assert isinstance(classify("apply", _failed(text)), EnvironmentFailure)


def _catalogue(mirror: Path) -> None:
    path = toolchain.catalogue_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"services": ["sqs", "iam"], "types": {
        "aws_sqs_queue": "sqs", "aws_glue_job": "glue", "aws_glue_catalog_table": "glue"}}))


def test_a_resource_type_outside_the_trimmed_build_is_the_kits_gap(mirror: Path) -> None:
    _catalogue(mirror)
    text = ('Error: Invalid resource type\n\n  on main.tf line 1:\n'
            'The provider hashicorp/aws does not support resource type "aws_glue_job".')
    failure = classify("apply", _failed(text))
    assert isinstance(failure, EnvironmentFailure)
    assert "aws_glue_job" in str(failure) and "'glue'" in str(failure)
    assert "sqs, iam" in str(failure)


def test_a_type_no_aws_provider_has_is_the_solutions_mistake(mirror: Path) -> None:
    _catalogue(mirror)
    text = 'The provider hashicorp/aws does not support resource type "aws_sqs_queueue".'
    assert isinstance(classify("apply", _failed(text)), DeployFailure)
    text = 'The provider hashicorp/aws does not support data source "aws_sqs_queue".'
    assert isinstance(classify("apply", _failed(text)), DeployFailure)
