locals {
  # arn:<partition>:rds:<region>:<account>:db:<id>
  arn_parts  = split(":", aws_db_instance.ledger.arn)
  partition  = local.arn_parts[1]
  account_id = local.arn_parts[4]
}

# Only the harness principal may assume either role.
data "aws_iam_policy_document" "trust_harness" {
  statement {
    sid     = "HarnessOnly"
    effect  = "Allow"
    actions = ["sts:AssumeRole"]

    principals {
      type        = "AWS"
      identifiers = [var.harness_principal_arn]
    }
  }
}

# --------------------------------------------------------------------------------------
# Application role: read the two endpoint secrets, nothing else.
# --------------------------------------------------------------------------------------
resource "aws_iam_role" "app" {
  name_prefix          = "ledger-app-"
  description          = "Ledger application"
  assume_role_policy   = data.aws_iam_policy_document.trust_harness.json
  max_session_duration = 3600
}

data "aws_iam_policy_document" "app" {
  statement {
    sid     = "ReadEndpointSecrets"
    effect  = "Allow"
    actions = ["secretsmanager:GetSecretValue"]
    resources = [
      aws_secretsmanager_secret.endpoint.arn,
      aws_secretsmanager_secret.standby_endpoint.arn,
    ]
  }
}

resource "aws_iam_role_policy" "app" {
  name   = "read-endpoint-secrets"
  role   = aws_iam_role.app.id
  policy = data.aws_iam_policy_document.app.json
}

# --------------------------------------------------------------------------------------
# Operator role (runs the failover runbook): describe DB instances, promote the standby,
# read both endpoint secrets, write the us-west-2 one. Nothing else.
# --------------------------------------------------------------------------------------
resource "aws_iam_role" "operator" {
  name_prefix          = "ledger-operator-"
  description          = "Ledger region-failover runbook"
  assume_role_policy   = data.aws_iam_policy_document.trust_harness.json
  max_session_duration = 3600
}

data "aws_iam_policy_document" "operator" {
  statement {
    sid       = "DescribeDBInstances"
    effect    = "Allow"
    actions   = ["rds:DescribeDBInstances"]
    # "the state of ... any other DB instance": every DB instance of this account, any Region.
    resources = ["arn:${local.partition}:rds:*:${local.account_id}:db:*"]
  }

  statement {
    sid       = "PromoteStandby"
    effect    = "Allow"
    actions   = ["rds:PromoteReadReplica"]
    resources = [aws_db_instance.standby.arn]
  }

  statement {
    sid     = "ReadEndpointSecrets"
    effect  = "Allow"
    actions = ["secretsmanager:GetSecretValue"]
    resources = [
      aws_secretsmanager_secret.endpoint.arn,
      aws_secretsmanager_secret.standby_endpoint.arn,
    ]
  }

  statement {
    sid       = "WriteStandbyEndpointSecret"
    effect    = "Allow"
    actions   = ["secretsmanager:PutSecretValue"]
    resources = [aws_secretsmanager_secret.standby_endpoint.arn]
  }
}

resource "aws_iam_role_policy" "operator" {
  name   = "region-failover"
  role   = aws_iam_role.operator.id
  policy = data.aws_iam_policy_document.operator.json
}
