"""The Terraform mutation operators: each proposes the mutant it names, and only mutants
that parse and differ from the original are emitted."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from kit.mutate import generate
from kit.mutate.apply import materialize
from kit.mutate.mutant import Mutant

GOLDEN = Path(__file__).resolve().parents[2] / "golden"

POLICY = '''resource "aws_iam_role_policy" "worker" {
  name = "consume"
  role = aws_iam_role.worker.id
  policy = jsonencode({
    Version = "2012-10-17"
    Statement = [
      {
        Effect = "Allow"
        Action = [
          "sqs:ReceiveMessage",
          "sqs:DeleteMessage",
        ]
        Resource = aws_sqs_queue.orders.arn
      },
      {
        Effect   = "Allow"
        Action   = ["s3:GetObject", "s3:PutObject"]
        Resource = "*"
      },
    ]
  })
}

data "aws_iam_policy_document" "send" {
  statement {
    actions   = ["sqs:SendMessage"]
    resources = [aws_sqs_queue.orders.arn]
  }
}

resource "aws_sqs_queue_policy" "orders" {
  queue_url = aws_sqs_queue.orders.id
  policy = jsonencode({
    Statement = [{
      Effect    = "Allow"
      Principal = { Service = "events.amazonaws.com" }
      Action    = "sqs:SendMessage"
      Resource  = aws_sqs_queue.orders.arn
    }]
  })
}
'''

QUEUE = '''locals {
  max_receive_count = 5
}

resource "aws_sqs_queue" "orders" {
  name                       = "orders.fifo"
  fifo_queue                 = true
  visibility_timeout_seconds = 30
  deduplication_scope        = "messageGroup"
  redrive_policy = jsonencode({
    deadLetterTargetArn = aws_sqs_queue.dlq.arn
    maxReceiveCount     = 4
  })
}

resource "aws_db_instance" "db" {
  multi_az                = true
  backup_retention_period = 7
  deletion_protection     = true
  storage_encrypted       = true
}
'''


def _mutants(tmp_path: Path, text: str) -> dict[str, Mutant]:
    (tmp_path / "main.tf").write_text(text)
    return {m.id: m for m in generate.mutants(tmp_path)}


def _after(tmp_path: Path, mutant: Mutant) -> str:
    """The file the mutant's patch makes, applied with git apply as a variant's is."""
    return (materialize(tmp_path, mutant, tmp_path.parent / f"m-{abs(hash(mutant.id))}")
            / mutant.file).read_text()


def test_each_action_of_a_list_is_removed(tmp_path: Path) -> None:
    found = _mutants(tmp_path, POLICY)
    after = _after(tmp_path, found["iam.remove-action:main.tf:11"])
    assert '"sqs:DeleteMessage"' not in after and '"sqs:ReceiveMessage"' in after
    one_line = _after(tmp_path, found["iam.remove-action:main.tf:17:GetObject"])
    assert 'Action   = ["s3:PutObject"]' in one_line
    assert "iam.remove-action:main.tf:17:PutObject" in found


def test_each_statement_is_removed_identity_and_resource_policies(tmp_path: Path) -> None:
    found = _mutants(tmp_path, POLICY)
    first = _after(tmp_path, found["iam.remove-statement:main.tf:7:1"])
    assert "sqs:ReceiveMessage" not in first and "s3:GetObject" in first
    second = _after(tmp_path, found["iam.remove-statement:main.tf:15:2"])
    assert "s3:GetObject" not in second and "sqs:ReceiveMessage" in second
    block = _after(tmp_path, found["iam.remove-statement:main.tf:25"])
    assert "statement {" not in block
    queue = _after(tmp_path, found["resource-policy.remove-statement:main.tf:34:1"])
    assert "events.amazonaws.com" not in queue and "Statement = []" in queue


def test_a_resource_is_widened_unless_it_is_already_everything(tmp_path: Path) -> None:
    found = _mutants(tmp_path, POLICY)
    assert 'Resource = "*"' in _after(tmp_path, found["iam.widen-resource:main.tf:13"])
    assert 'resources = ["*"]' in _after(tmp_path, found["iam.widen-resource:main.tf:27"])
    assert "iam.widen-resource:main.tf:18" not in found  # already "*": identical, not emitted


def test_a_principal_is_widened_to_everyone(tmp_path: Path) -> None:
    found = _mutants(tmp_path, POLICY)
    assert 'Principal = "*"' in _after(tmp_path, found["iam.widen-principal:main.tf:36"])
    doc = 'data "aws_iam_policy_document" "t" {\n  statement {\n    principals {\n' \
          '      type        = "AWS"\n      identifiers = [var.harness]\n    }\n  }\n}\n'
    found = _mutants(tmp_path, doc)
    assert 'identifiers = ["*"]' in _after(tmp_path, found["iam.widen-principal:main.tf:5"])


def test_queue_and_database_settings_are_dropped_and_changed(tmp_path: Path) -> None:
    found = _mutants(tmp_path, QUEUE)
    assert "redrive_policy" not in _after(tmp_path, found["setting.drop:main.tf:10"])
    assert "maxReceiveCount     = 1\n" in _after(tmp_path, found["setting.change:main.tf:12:1"])
    assert "max_receive_count = 1000" in _after(tmp_path, found["setting.change:main.tf:2:1000"])
    assert "fifo_queue                 = false" in _after(
        tmp_path, found["setting.change:main.tf:7:false"])
    assert '"queue"' in _after(tmp_path, found["setting.change:main.tf:9:queue"])
    for line in (17, 18, 19, 20):  # multi-AZ, backups, deletion protection, encryption
        assert f"setting.drop:main.tf:{line}" in found
    assert "backup_retention_period = 0" in _after(tmp_path,
                                                   found["setting.change:main.tf:18:0"])
    assert "setting.change:main.tf:8:43200" in found


def test_a_broken_or_identical_mutant_is_not_emitted(tmp_path: Path) -> None:
    # An unbalanced file: every edit leaves it unparsable, so none is emitted.
    assert _mutants(tmp_path, QUEUE.replace("locals {", "locals {{")) == {}
    # A setting already at the value a change would set is no mutant.
    found = _mutants(tmp_path, 'resource "aws_sqs_queue" "q" {\n  delay_seconds = 0\n}\n')
    assert "setting.change:main.tf:2:0" not in found and "setting.change:main.tf:2:900" in found


@pytest.mark.parametrize("scenario", ["order-pipeline", "iam-boundary"])
def test_every_golden_mutant_applies_as_a_variant_patch(scenario: str, tmp_path: Path) -> None:
    golden = GOLDEN / scenario
    mutants = generate.mutants(golden)
    assert len({m.id for m in mutants}) == len(mutants) > 10
    for m in mutants:  # git apply --check, as kit/variants.py applies a change.patch
        done = subprocess.run(["git", "apply", "--check", "-"], input=m.patch, cwd=golden,
                              capture_output=True, text=True, check=False,
                              env={"GIT_CEILING_DIRECTORIES": str(golden.parent),
                                   "PATH": "/usr/bin:/bin"})
        assert done.returncode == 0, (m.id, done.stderr)
        assert m.patch.startswith(f"--- a/{m.file}\n+++ b/{m.file}\n")
