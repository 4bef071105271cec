"""The gate reads a heredoc as Terraform does: its closing marker may be followed by blanks.

HCL native syntax specification (hashicorp/hcl, hclsyntax/spec.md, "Template Expressions"):
a heredoc ends at a line holding its marker; Terraform 1.x accepts `POLICY  ` (trailing
blanks) as that line (`terraform validate` of aws-samples/serverless-patterns
eventbridge-sns-terraform says "Success!"), python-hcl2 did not, and the gate called the file
"not valid HCL": a `fail` for Terraform that Terraform and AWS accept.
"""

from __future__ import annotations

from kit.deploy.hcl import heredoc_ends_trimmed, loads

# As aws-samples/serverless-patterns writes it: the marker line ends with two blanks.
POLICY = ('resource "aws_sns_topic_policy" "default" {\n'
          '  arn    = aws_sns_topic.t.arn\n'
          '  policy = <<POLICY\n{\n  "Version": "2008-10-17"\n}\nPOLICY  \n}\n')


def test_a_heredoc_whose_marker_line_has_trailing_blanks_parses() -> None:
    body = loads(POLICY)["resource"][0]["aws_sns_topic_policy"]["default"]
    assert '"Version": "2008-10-17"' in body["policy"]


def test_only_marker_lines_are_trimmed() -> None:
    text = 'a = <<-EOT\n  x  \n  EOT \t\nb = "EOT  "\n'
    assert heredoc_ends_trimmed(text) == 'a = <<-EOT\n  x  \n  EOT\nb = "EOT  "\n'
    assert heredoc_ends_trimmed('a = "x"  \n') == 'a = "x"  \n'
