"""kit check --static's policy lint over each way a policy is written (jsonencode, a JSON
heredoc, an aws_iam_policy_document block, a local), each shown failing and passing; and
the command on a team repository (judged as its scenario's run judges it)."""

from __future__ import annotations

from pathlib import Path

import pytest

from kit import cli
from kit.ci import static
from kit.scenario import MODULES, Toolchain
from tests.conftest import ROOT

JSONENCODE = '''resource "aws_iam_role_policy" "p" {
  role   = "r"
  policy = jsonencode({
    Version   = "2012-10-17"
    Statement = [{ Effect = "Allow", Action = ACTION, Resource = "*" }]
  })
}
'''
HEREDOC = '''resource "aws_sqs_queue_policy" "q" {
  queue_url = "u"
  policy    = <<EOT
{"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Principal": PRINCIPAL,
  "Action": "sqs:SendMessage", "Resource": "*"}]}
EOT
}
'''
DOCUMENT = '''data "aws_iam_policy_document" "d" {
  statement {
    actions   = [ACTION]
    resources = ["*"]
  }
}
'''
LOCAL = '''locals {
  trust = jsonencode({
    Statement = [{ Effect = "Allow", Principal = { AWS = PRINCIPAL },
                   Action = "sts:AssumeRole" CONDITION }]
  })
}
'''


def _check(tmp: Path, text: str) -> set[str]:
    (tmp / "main.tf").write_text(text)
    return {f.check for f in static.check(tmp, Toolchain().allowed_providers, MODULES)}


@pytest.mark.parametrize("template", [JSONENCODE, DOCUMENT])
def test_identity_policy_wildcards(template: str, tmp_path: Path):
    assert _check(tmp_path, template.replace("ACTION", '"sqs:*"')) == {"iam.least_privilege"}
    assert _check(tmp_path, template.replace("ACTION", '"*"')) == {"iam.least_privilege"}
    assert _check(tmp_path, template.replace("ACTION", '"sqs:SendMessage"')) == set()


def test_resource_policy_open_to_everyone(tmp_path: Path):
    assert _check(tmp_path, HEREDOC.replace("PRINCIPAL", '"*"')) == {"iam.resource_exposure"}
    assert _check(tmp_path, HEREDOC.replace("PRINCIPAL", '{"AWS": ["*"]}')) == {
        "iam.resource_exposure"}
    assert _check(tmp_path, HEREDOC.replace(
        "PRINCIPAL", '{"AWS": "arn:aws:iam::123456789012:root"}')) == set()


def test_trust_in_a_local_and_its_condition(tmp_path: Path):
    open_trust = LOCAL.replace("PRINCIPAL", '"*"')
    assert _check(tmp_path, open_trust.replace("CONDITION", "")) == {"iam.least_privilege"}
    conditioned = open_trust.replace("CONDITION", ', Condition = { StringEquals = '
                                     '{ "aws:PrincipalAccount" = "123456789012" } }')
    assert _check(tmp_path, conditioned) == set()


def test_finding_names_file_and_line(tmp_path: Path):
    (tmp_path / "main.tf").write_text("\n\n" + JSONENCODE.replace("ACTION", '"*"'))
    (finding,) = static.check(tmp_path, Toolchain().allowed_providers, MODULES)
    assert finding.where == "main.tf:3" and "every action of *" in finding.what


def test_team_repository_is_judged_by_its_scenario(capsys):
    team = ROOT / "examples" / "team-repo" / ".kit"
    assert cli.main(["check", "--static", "--scenarios", str(team), "--scenario",
                     "team-orders-ecs"]) == 0
    assert "no finding" in capsys.readouterr().err


def test_missing_root_is_an_input_error(tmp_path: Path, capsys):
    assert cli.main(["check", "--static", "--root", str(tmp_path / "nope")]) == cli.EXIT_USAGE
    assert "--root" in capsys.readouterr().err
