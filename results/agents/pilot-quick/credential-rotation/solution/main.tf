terraform {
  required_providers {
    aws = {
      source  = "hashicorp/aws"
      version = "~> 6.0"
    }
    random = {
      source  = "hashicorp/random"
      version = "~> 3.0"
    }
    archive = {
      source  = "hashicorp/archive"
      version = "~> 2.0"
    }
  }
}

variable "harness_principal_arn" {
  type = string
}

locals {
  name        = "ledger"
  db_name     = "ledger"
  app_user    = "ledger_app"
  master_user = "ledger_admin"
}

# ---------------- Database ----------------

resource "random_password" "master" {
  length  = 32
  special = false
}

resource "random_password" "app" {
  length  = 32
  special = false
}

resource "aws_db_instance" "ledger" {
  identifier_prefix   = "${local.name}-"
  engine              = "postgres"
  engine_version      = "15"
  instance_class      = "db.t4g.micro"
  allocated_storage   = 20
  storage_encrypted   = true
  db_name             = local.db_name
  username            = local.master_user
  password            = random_password.master.result
  port                = 5432
  skip_final_snapshot = true
  apply_immediately   = true
}

# ---------------- Secrets ----------------

resource "aws_secretsmanager_secret" "master" {
  name_prefix             = "${local.name}-master-"
  recovery_window_in_days = 0
}

resource "aws_secretsmanager_secret_version" "master" {
  secret_id = aws_secretsmanager_secret.master.id
  secret_string = jsonencode({
    host     = aws_db_instance.ledger.address
    port     = aws_db_instance.ledger.port
    username = local.master_user
    password = random_password.master.result
    dbname   = local.db_name
  })
}

resource "aws_secretsmanager_secret" "app" {
  name_prefix             = "${local.name}-app-"
  recovery_window_in_days = 0
}

resource "aws_secretsmanager_secret_version" "app" {
  secret_id = aws_secretsmanager_secret.app.id
  secret_string = jsonencode({
    host     = aws_db_instance.ledger.address
    port     = aws_db_instance.ledger.port
    username = local.app_user
    password = random_password.app.result
    dbname   = local.db_name
  })

  lifecycle {
    # rotation owns the secret's value and labels after creation
    ignore_changes = [secret_string, version_stages]
  }
}

resource "aws_secretsmanager_secret_rotation" "app" {
  secret_id           = aws_secretsmanager_secret.app.id
  rotation_lambda_arn = aws_lambda_function.rotation.arn

  rotation_rules {
    automatically_after_days = 30
  }

  depends_on = [aws_secretsmanager_secret_version.app, aws_lambda_permission.secretsmanager]
}

# ---------------- IAM ----------------

data "aws_iam_policy_document" "app_trust" {
  statement {
    actions = ["sts:AssumeRole"]
    principals {
      type        = "AWS"
      identifiers = [var.harness_principal_arn]
    }
  }
}

resource "aws_iam_role" "app" {
  name_prefix        = "${local.name}-app-"
  assume_role_policy = data.aws_iam_policy_document.app_trust.json
}

data "aws_iam_policy_document" "app" {
  statement {
    actions   = ["secretsmanager:GetSecretValue"]
    resources = [aws_secretsmanager_secret.app.arn]
  }
}

resource "aws_iam_role_policy" "app" {
  name   = "read-app-secret"
  role   = aws_iam_role.app.id
  policy = data.aws_iam_policy_document.app.json
}

data "aws_iam_policy_document" "rotation_trust" {
  statement {
    actions = ["sts:AssumeRole"]
    principals {
      type        = "AWS"
      identifiers = [var.harness_principal_arn]
    }
  }
  statement {
    actions = ["sts:AssumeRole"]
    principals {
      type        = "Service"
      identifiers = ["lambda.amazonaws.com"]
    }
  }
}

resource "aws_iam_role" "rotation" {
  name_prefix        = "${local.name}-rot-"
  assume_role_policy = data.aws_iam_policy_document.rotation_trust.json
}

data "aws_iam_policy_document" "rotation" {
  statement {
    actions = [
      "secretsmanager:GetSecretValue",
      "secretsmanager:DescribeSecret",
      "secretsmanager:ListSecretVersionIds",
      "secretsmanager:PutSecretValue",
      "secretsmanager:UpdateSecretVersionStage",
    ]
    resources = [aws_secretsmanager_secret.app.arn]
  }
  statement {
    actions   = ["secretsmanager:GetRandomPassword"]
    resources = ["*"]
  }
  statement {
    actions   = ["rds:DescribeDBInstances"]
    resources = [aws_db_instance.ledger.arn]
  }
  statement {
    actions   = ["logs:CreateLogStream", "logs:PutLogEvents"]
    resources = ["${aws_cloudwatch_log_group.rotation.arn}:*"]
  }
}

resource "aws_iam_role_policy" "rotation" {
  name   = "rotate-app-secret"
  role   = aws_iam_role.rotation.id
  policy = data.aws_iam_policy_document.rotation.json
}

# ---------------- Rotation function ----------------

data "archive_file" "rotation" {
  type        = "zip"
  source_dir  = "${path.module}/lambda"
  output_path = "${path.module}/build/rotation.zip"
}

resource "aws_cloudwatch_log_group" "rotation" {
  name              = "/aws/lambda/${local.name}-secret-rotation"
  retention_in_days = 14
}

resource "aws_lambda_function" "rotation" {
  function_name    = "${local.name}-secret-rotation"
  role             = aws_iam_role.rotation.arn
  runtime          = "python3.11"
  handler          = "rotation.lambda_handler"
  filename         = data.archive_file.rotation.output_path
  source_code_hash = data.archive_file.rotation.output_base64sha256
  timeout          = 60

  environment {
    variables = {
      PASSWORD_LENGTH = "32"
    }
  }

  depends_on = [aws_iam_role_policy.rotation, aws_cloudwatch_log_group.rotation]
}

resource "aws_lambda_permission" "secretsmanager" {
  statement_id  = "AllowSecretsManager"
  action        = "lambda:InvokeFunction"
  function_name = aws_lambda_function.rotation.function_name
  principal     = "secretsmanager.amazonaws.com"
  source_arn    = aws_secretsmanager_secret.app.arn
}

# ---------------- Outputs ----------------

output "db_instance_identifier" {
  value = aws_db_instance.ledger.identifier
}

output "app_secret_arn" {
  value = aws_secretsmanager_secret.app.arn
}

output "master_secret_arn" {
  value = aws_secretsmanager_secret.master.arn
}

output "rotation_function_arn" {
  value = aws_lambda_function.rotation.arn
}

output "app_role_arn" {
  value = aws_iam_role.app.arn
}

output "rotation_role_arn" {
  value = aws_iam_role.rotation.arn
}
