locals {
  rds_arn_prefix = "arn:${data.aws_partition.current.partition}:rds:${data.aws_region.current.region}:${data.aws_caller_identity.current.account_id}"
}

data "aws_iam_policy_document" "trust_harness" {
  statement {
    actions = ["sts:AssumeRole"]
    principals {
      type        = "AWS"
      identifiers = [var.harness_principal_arn]
    }
  }
}

resource "aws_iam_role" "app" {
  name               = "ledger-app"
  assume_role_policy = data.aws_iam_policy_document.trust_harness.json
}

resource "aws_iam_role_policy" "app" {
  name = "read-endpoint-secret"
  role = aws_iam_role.app.id
  policy = jsonencode({
    Version = "2012-10-17"
    Statement = [{
      Effect   = "Allow"
      Action   = ["secretsmanager:GetSecretValue"]
      Resource = aws_secretsmanager_secret.endpoint.arn
    }]
  })
}

resource "aws_iam_role" "operator" {
  name               = "ledger-operator"
  assume_role_policy = data.aws_iam_policy_document.trust_harness.json
}

resource "aws_iam_role_policy" "operator" {
  name = "ledger-recovery"
  role = aws_iam_role.operator.id
  policy = jsonencode({
    Version = "2012-10-17"
    Statement = [
      {
        Sid      = "ReadRdsState"
        Effect   = "Allow"
        Action   = ["rds:DescribeDBInstances", "rds:DescribeDBSnapshots", "rds:DescribeDBInstanceAutomatedBackups"]
        Resource = "*"
      },
      {
        Sid    = "RecoverLedgerInstance"
        Effect = "Allow"
        Action = [
          "rds:CreateDBSnapshot",
          "rds:RebootDBInstance",
          "rds:RestoreDBInstanceToPointInTime",
          "rds:RestoreDBInstanceFromDBSnapshot",
        ]
        Resource = [
          "${local.rds_arn_prefix}:db:${local.db_identifier}",
          "${local.rds_arn_prefix}:db:${local.db_identifier}-*",
          "${local.rds_arn_prefix}:snapshot:${local.db_identifier}-*",
          "${local.rds_arn_prefix}:subgrp:${aws_db_subnet_group.ledger.name}",
        ]
      },
      {
        Sid      = "EndpointSecret"
        Effect   = "Allow"
        Action   = ["secretsmanager:GetSecretValue", "secretsmanager:PutSecretValue"]
        Resource = aws_secretsmanager_secret.endpoint.arn
      },
    ]
  })
}
