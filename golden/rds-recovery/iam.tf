data "aws_caller_identity" "current" {}
data "aws_region" "current" {}

locals {
  assume_by_harness = jsonencode({
    Version = "2012-10-17"
    Statement = [{
      Effect    = "Allow"
      Principal = { AWS = var.harness_principal_arn }
      Action    = "sts:AssumeRole"
    }]
  })

  rds_arn = "arn:aws:rds:${data.aws_region.current.region}:${data.aws_caller_identity.current.account_id}"
  # The ledger's instance and every instance or snapshot recovery makes from it (their
  # names start with the instance's identifier), and its automated snapshots ("rds:...").
  ledger_instances = "${local.rds_arn}:db:${aws_db_instance.ledger.identifier}*"
  ledger_snapshots = [
    "${local.rds_arn}:snapshot:${aws_db_instance.ledger.identifier}*",
    "${local.rds_arn}:snapshot:rds:${aws_db_instance.ledger.identifier}*",
  ]
}

resource "aws_iam_role" "app" {
  name               = "ledger-app"
  description        = "The ledger application: finds its database through the endpoint secret."
  assume_role_policy = local.assume_by_harness
}

resource "aws_iam_role_policy" "app_read_endpoint" {
  name = "read-endpoint"
  role = aws_iam_role.app.id
  policy = jsonencode({
    Version = "2012-10-17"
    Statement = [{
      Sid      = "ReadEndpoint"
      Effect   = "Allow"
      Action   = "secretsmanager:GetSecretValue"
      Resource = aws_secretsmanager_secret.endpoint.arn
    }]
  })
}

resource "aws_iam_role" "operator" {
  name               = "ledger-operator"
  description        = "Runs the recovery runbook."
  assume_role_policy = local.assume_by_harness
}

# Recovery only: read state, restore from the ledger's backups into a new instance, repoint
# the application. No delete, no modify: the runbook can never remove a protection.
resource "aws_iam_role_policy" "operator_recover" {
  name = "recover-ledger"
  role = aws_iam_role.operator.id
  policy = jsonencode({
    Version = "2012-10-17"
    Statement = [
      {
        Sid      = "ReadState"
        Effect   = "Allow"
        Action   = ["rds:DescribeDBInstances", "rds:DescribeDBSnapshots"]
        Resource = concat([local.ledger_instances], local.ledger_snapshots)
      },
      {
        Sid    = "Restore"
        Effect = "Allow"
        Action = [
          "rds:RestoreDBInstanceToPointInTime",
          "rds:RestoreDBInstanceFromDBSnapshot",
        ]
        Resource = concat([local.ledger_instances], local.ledger_snapshots)
      },
      {
        Sid      = "Repoint"
        Effect   = "Allow"
        Action   = "secretsmanager:PutSecretValue"
        Resource = aws_secretsmanager_secret.endpoint.arn
      },
    ]
  })
}
