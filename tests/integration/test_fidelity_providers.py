"""Providers and version requirements a real stack carries (issue 25, classes 4, 5, 6, 9),
through real Terraform and the sandbox's attached AWS provider, as a run deploys.

Terraform, "Version Constraints"
(https://developer.hashicorp.com/terraform/language/expressions/version-constraints):
`terraform init` selects, for each provider, a version meeting the constraints of the root
module and of every module, and fails when none does; `required_version` likewise.
"""

from __future__ import annotations

import base64
import hashlib
import json
import subprocess
import zipfile
from pathlib import Path

import pytest

from kit import aws, settings
from kit.deploy.terraform import DeployFailure, EnvironmentFailure, Terraform
from kit.run.sandbox import Sandbox

AWS_VERSION = settings.AWS_PROVIDER["version"]


def _terraform_version() -> tuple[int, ...]:
    """The kit's Terraform's version (OpenTofu's numbers differ: reported as 0)."""
    binary = settings.terraform_binary() or "terraform"
    shown = json.loads(subprocess.run([binary, "version", "-json"], capture_output=True,
                                      text=True, check=True).stdout)
    version = shown.get("terraform_version", "0") if "tofu" not in binary else "0"
    return tuple(int(p) for p in version.split("-")[0].split("."))


@pytest.fixture(scope="module")
def sandbox():  # noqa: ANN201
    with Sandbox(postgres=False, provider=True) as sb:
        yield sb


def _terraform(sandbox: Sandbox, tmp_path: Path, files: dict[str, str], *,
               promised: bool = True, attached: bool = True,
               **configure: object) -> Terraform:
    """A configured working copy of a stack made of `files`, attached to the sandbox's
    provider as a run's is (not `attached`: a stack whose providers write files, which
    terraform runs with a provider of its own, in the root module)."""
    solution = tmp_path / "solution"
    for name, text in files.items():
        (solution / name).parent.mkdir(parents=True, exist_ok=True)
        (solution / name).write_text(text)
    tf = Terraform(solution, tmp_path / "work", reattach=sandbox.provider.reattach,
                   provider_cwd=sandbox.provider.cwd, promised=promised)
    assert bool(tf.reattach) == attached, "the stack must run with the attached provider"
    tf.configure(sandbox.moto.url, **configure)
    return tf


UTILITIES_TF = """
terraform {
  required_providers {
    aws   = { source = "hashicorp/aws", version = "~> 6.0" }
    time  = { source = "hashicorp/time", version = "~> 0.13" }
    local = { source = "hashicorp/local", version = "~> 2.5" }
    tls   = { source = "hashicorp/tls", version = "~> 4.0" }
  }
}

resource "time_static" "created" {}

resource "time_offset" "expiry" {
  base_rfc3339 = time_static.created.rfc3339
  offset_days  = 7
}

resource "tls_private_key" "deploy" {
  algorithm = "ED25519"
}

resource "local_file" "public_key" {
  filename = "${path.module}/deploy.pub"
  content  = tls_private_key.deploy.public_key_openssh
}

resource "aws_key_pair" "deploy" {
  key_name   = "deploy"
  public_key = tls_private_key.deploy.public_key_openssh
}

resource "aws_sqs_queue" "q" {
  name = "utilities"
  tags = { expires = time_offset.expiry.rfc3339, key = local_file.public_key.id }
}
"""


def test_a_stack_using_the_time_local_and_tls_providers_applies_and_destroys(
        sandbox: Sandbox, tmp_path: Path) -> None:
    """The utility providers the mirror builds from the module proxy install offline beside
    the attached AWS provider, read back clean and destroy."""
    tf = _terraform(sandbox, tmp_path, {"main.tf": UTILITIES_TF}, attached=False)
    tf.init()
    tf.apply()
    assert (tf.root / "deploy.pub").read_text().startswith("ssh-ed25519 ")
    assert tf.pending_changes() == []
    tf.destroy()
    assert not (tf.root / "deploy.pub").exists()


NULL_TIME_ARCHIVE_TF = """
terraform {
  required_providers {
    aws     = { source = "hashicorp/aws", version = "~> 6.0" }
    null    = { source = "hashicorp/null", version = "~> 3.2" }
    time    = { source = "hashicorp/time", version = "~> 0.13" }
    archive = { source = "hashicorp/archive", version = "~> 2.4" }
  }
}

resource "time_static" "created" {}

data "archive_file" "handler" {
  type        = "zip"
  output_path = "${path.module}/build/handler.zip"
  source_dir  = "${path.module}/src"
  excludes    = ["tests"]
}

data "null_data_source" "names" {
  inputs = { function = "null-time-archive" }
}

resource "aws_iam_role" "fn" {
  name = "null-time-archive"
  assume_role_policy = jsonencode({
    Version = "2012-10-17"
    Statement = [{ Effect = "Allow", Action = "sts:AssumeRole",
                   Principal = { Service = "lambda.amazonaws.com" } }]
  })
}

resource "aws_lambda_function" "fn" {
  function_name    = data.null_data_source.names.outputs["function"]
  role             = aws_iam_role.fn.arn
  runtime          = "python3.12"
  handler          = "handler.handler"
  filename         = data.archive_file.handler.output_path
  source_code_hash = data.archive_file.handler.output_base64sha256
  tags             = { created = time_static.created.rfc3339 }
}

resource "null_resource" "deployed" {
  triggers = { code = aws_lambda_function.fn.source_code_hash }
}
"""

HANDLER = {"src/handler.py": "def handler(event, context):\n    return event\n",
           "src/lib/util.py": "ANSWER = 42\n", "src/tests/test_handler.py": "import handler\n"}


def test_a_stack_using_null_time_and_archive_applies_and_destroys(
        sandbox: Sandbox, tmp_path: Path) -> None:
    """hashicorp/null and archive are the kit's stand-ins (providers/; the module proxy
    serves no release of them). The Registry's archive_file documents a zip of
    `source_dir` without what `excludes` names, written when read, with
    `output_base64sha256` its base64 SHA-256; Lambda's API reference documents
    FunctionConfiguration.CodeSha256 as "the SHA256 hash of the function's deployment
    package", base64: the two agree, the stack reads back clean, and a read of unchanged
    sources gives the same bytes."""
    tf = _terraform(sandbox, tmp_path, {"main.tf": NULL_TIME_ARCHIVE_TF, **HANDLER},
                    promised=False, attached=False)
    tf.init()
    tf.apply()
    package = tf.root / "build" / "handler.zip"
    with zipfile.ZipFile(package) as zipped:
        assert sorted(zipped.namelist()) == ["handler.py", "lib/util.py"]
    function = aws.client("lambda", sandbox.moto.url).get_function(
        FunctionName="null-time-archive")["Configuration"]
    assert function["CodeSha256"] == base64.b64encode(
        hashlib.sha256(package.read_bytes()).digest()).decode()
    assert tf.pending_changes() == []
    tf.destroy()


CLOUDINIT_TF = """
terraform {
  required_providers {
    aws       = { source = "hashicorp/aws", version = "~> 6.0" }
    time      = { source = "hashicorp/time", version = "~> 0.13" }
    cloudinit = { source = "hashicorp/cloudinit", version = "~> 2.3" }
  }
}

data "cloudinit_config" "boot" {
  part {
    content_type = "text/x-shellscript"
    content      = "echo hello"
  }
}

resource "aws_sqs_queue" "q" {
  name = "cloudinit"
  tags = { boot = sha256(data.cloudinit_config.boot.rendered) }
}
"""


def test_a_stack_needing_a_provider_the_mirror_lacks_is_the_kits_error_naming_it(
        sandbox: Sandbox, tmp_path: Path) -> None:
    """hashicorp/cloudinit: the module proxy serves no release of it and the kit has no
    stand-in (docs/toolchain.md). Terraform, "Provider Installation": init fails for a
    provider no search location has; in a real init with the attached provider that is
    the kit's `error` naming the missing provider (time, which the mirror holds, is not
    named), nothing applied."""
    tf = _terraform(sandbox, tmp_path, {"main.tf": CLOUDINIT_TF}, promised=False)
    with pytest.raises(EnvironmentFailure) as caught:
        tf.init()
    reason = caught.value.reason
    assert reason.startswith("the stack needs hashicorp/cloudinit, which the kit's provider "
                             "mirror does not hold"), reason
    queues = aws.client("sqs", sandbox.moto.url).list_queues().get("QueueUrls", [])
    assert not [url for url in queues if url.endswith("/cloudinit")]


OLD_AWS = {
    "main.tf": 'module "queue" {\n  source = "./queue"\n}\n',
    # The constraint is a module's, not the root's: Terraform merges both (the docs above).
    "queue/main.tf": """
terraform {
  required_providers {
    aws = { source = "hashicorp/aws", version = "< 6.0" }
  }
}

resource "aws_sqs_queue" "q" {
  name = "old"
}
""",
}


def test_a_stack_requiring_aws_below_6_is_the_kits_error_naming_the_mirrors_version(
        sandbox: Sandbox, tmp_path: Path) -> None:
    """Attached, init used to skip the AWS provider's constraint and the stack was applied
    with the mirror's 6.x; now init fails before anything is applied."""
    tf = _terraform(sandbox, tmp_path, OLD_AWS, promised=False)
    with pytest.raises(EnvironmentFailure) as caught:
        tf.init()
    assert f"has: {AWS_VERSION}" in caught.value.reason
    assert "hashicorp/aws (< 6.0.0)" in caught.value.reason
    queues = aws.client("sqs", sandbox.moto.url).list_queues().get("QueueUrls", [])
    assert not [url for url in queues if url.endswith("/old")]  # nothing was applied


def test_a_solution_requiring_aws_below_6_against_its_prompt_is_its_own_fail(
        sandbox: Sandbox, tmp_path: Path) -> None:
    """A scenario's prompt names `~> 6.0`: a solution asking for < 6.0 must not reach the
    kit's `error` (dropped from the reward)."""
    tf = _terraform(sandbox, tmp_path, OLD_AWS)
    with pytest.raises(DeployFailure) as caught:
        tf.init()
    assert f"({AWS_VERSION}, as the prompt says)" in str(caught.value)


def test_a_stack_needing_a_newer_terraform_is_the_kits_error_naming_its_version(
        sandbox: Sandbox, tmp_path: Path) -> None:
    """`required_version` (Terraform, "terraform block"): a Terraform it excludes refuses
    the configuration at init."""
    files = {"main.tf": 'terraform {\n  required_version = ">= 99.0.0"\n}\n'
                        'resource "aws_sqs_queue" "q" {\n  name = "future"\n}\n'}
    tf = _terraform(sandbox, tmp_path, files, promised=False)
    with pytest.raises(EnvironmentFailure) as caught:
        tf.init()
    assert "(>= 99.0.0)" in caught.value.reason and "the kit runs Terraform 1." in \
        caught.value.reason


UNGUARDED_TF = """
variable "subnets" {
  type    = list(string)
  default = null
  validation {
    condition     = var.subnets == null || length(var.subnets) > 0
    error_message = "subnets must not be empty."
  }
}

resource "aws_sqs_queue" "q" {
  name = "guarded"
}
"""


@pytest.mark.skipif(not (1,) <= _terraform_version() < (1, 12),
                    reason="only a Terraform before 1.12 lacks the short-circuit")
def test_a_guard_that_needs_terraform_1_12s_short_circuit_is_the_kits_error(
        sandbox: Sandbox, tmp_path: Path) -> None:
    """Terraform v1.12.0 CHANGELOG: "Logical binary operators can now short-circuit"; the
    kit's Terraform evaluates both operands, so a stack valid on 1.12 fails its plan."""
    tf = _terraform(sandbox, tmp_path, {"main.tf": UNGUARDED_TF}, promised=False)
    tf.init()
    with pytest.raises(EnvironmentFailure) as caught:
        tf.apply()
    assert "needs Terraform 1.12 or later" in caught.value.reason


PROFILE_TF = """
provider "aws" {
  region                   = "us-east-1"
  profile                  = "production"
  shared_config_files      = ["/home/ops/.aws/config"]
  shared_credentials_files = ["/home/ops/.aws/credentials"]
}

resource "aws_sqs_queue" "q" {
  name = "profiled"
}
"""


@pytest.mark.parametrize("region", ["kit", "own"])
def test_a_provider_block_with_a_profile_applies(sandbox: Sandbox, tmp_path: Path,
                                                 region: str) -> None:
    """The AWS provider's `profile` and shared config files name how a team reaches its
    own account (AWS provider docs, "Shared Configuration and Credentials Files"); the
    override unsets them in a run's deploy (the kit's region) and in the fidelity bench's
    (the stack's regions kept), so the stack applies against the emulator."""
    kept = {} if region == "kit" else {"region": None}
    tf = _terraform(sandbox, tmp_path, {"main.tf": PROFILE_TF}, **kept)
    tf.init()
    tf.apply()
    assert tf.pending_changes() == []
    tf.destroy()
