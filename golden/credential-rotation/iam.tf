data "aws_caller_identity" "current" {}

locals {
  harness_trust = {
    Effect    = "Allow"
    Principal = { AWS = var.harness_principal_arn }
    Action    = "sts:AssumeRole"
  }
}

resource "aws_iam_role" "app" {
  name        = "ledger-app"
  description = "The ledger application: reads its database credentials."
  assume_role_policy = jsonencode({
    Version   = "2012-10-17"
    Statement = [local.harness_trust]
  })
}

resource "aws_iam_role_policy" "app_read_credentials" {
  name = "read-credentials"
  role = aws_iam_role.app.id
  policy = jsonencode({
    Version = "2012-10-17"
    Statement = [{
      Sid      = "ReadCredentials"
      Effect   = "Allow"
      Action   = "secretsmanager:GetSecretValue"
      Resource = aws_secretsmanager_secret.app.arn
    }]
  })
}

resource "aws_iam_role" "rotation" {
  name        = "ledger-rotation"
  description = "The rotation function's execution role."
  assume_role_policy = jsonencode({
    Version = "2012-10-17"
    Statement = [
      {
        Effect    = "Allow"
        Principal = { Service = "lambda.amazonaws.com" }
        Action    = "sts:AssumeRole"
      },
      local.harness_trust,
    ]
  })
}

# Rotate the application's secret (read it, write the pending version, move the labels)
# and generate passwords. Nothing else: not the master's secret.
resource "aws_iam_role_policy" "rotation" {
  name = "rotate-app-credentials"
  role = aws_iam_role.rotation.id
  policy = jsonencode({
    Version = "2012-10-17"
    Statement = [
      {
        Sid    = "RotateAppSecret"
        Effect = "Allow"
        Action = [
          "secretsmanager:DescribeSecret",
          "secretsmanager:GetSecretValue",
          "secretsmanager:PutSecretValue",
          "secretsmanager:UpdateSecretVersionStage",
        ]
        Resource = aws_secretsmanager_secret.app.arn
      },
      {
        Sid      = "GeneratePasswords"
        Effect   = "Allow"
        Action   = "secretsmanager:GetRandomPassword"
        Resource = "*"
      },
    ]
  })
}
