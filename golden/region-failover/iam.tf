locals {
  assume_by_harness = jsonencode({
    Version = "2012-10-17"
    Statement = [{
      Effect    = "Allow"
      Principal = { AWS = var.harness_principal_arn }
      Action    = "sts:AssumeRole"
    }]
  })
}

resource "aws_iam_role" "app" {
  name               = "ledger-app"
  assume_role_policy = local.assume_by_harness
}

resource "aws_iam_role_policy" "app_read_endpoint" {
  name = "read-endpoints"
  role = aws_iam_role.app.id
  policy = jsonencode({
    Version = "2012-10-17"
    Statement = [{
      Sid      = "ReadEndpoints"
      Effect   = "Allow"
      Action   = "secretsmanager:GetSecretValue"
      Resource = [aws_secretsmanager_secret.endpoint.arn, aws_secretsmanager_secret.standby.arn]
    }]
  })
}

resource "aws_iam_role" "operator" {
  name               = "ledger-operator"
  assume_role_policy = local.assume_by_harness
}

# Failover only: promote the standby, repoint the application in the standby Region.
resource "aws_iam_role_policy" "operator_failover" {
  name = "fail-over-ledger"
  role = aws_iam_role.operator.id
  policy = jsonencode({
    Version = "2012-10-17"
    Statement = [
      {
        Sid      = "ReadState"
        Effect   = "Allow"
        Action   = "rds:DescribeDBInstances"
        Resource = [aws_db_instance.ledger.arn, aws_db_instance.standby.arn]
      },
      {
        Sid      = "Promote"
        Effect   = "Allow"
        Action   = "rds:PromoteReadReplica"
        Resource = aws_db_instance.standby.arn
      },
      {
        Sid      = "Repoint"
        Effect   = "Allow"
        Action   = ["secretsmanager:GetSecretValue", "secretsmanager:PutSecretValue"]
        Resource = aws_secretsmanager_secret.standby.arn
      },
    ]
  })
}
