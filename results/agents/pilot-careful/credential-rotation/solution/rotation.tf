locals {
  rotation_function_name = "${var.name}-db-credential-rotation"
}

data "archive_file" "rotation" {
  type        = "zip"
  source_file = "${path.module}/rotation_function/lambda_function.py"
  output_path = "${path.module}/build/rotation_function.zip"
}

resource "aws_cloudwatch_log_group" "rotation" {
  name              = "/aws/lambda/${local.rotation_function_name}"
  retention_in_days = var.log_retention_days
}

resource "aws_lambda_function" "rotation" {
  function_name = local.rotation_function_name
  description   = "Rotates ${aws_secretsmanager_secret.app.name} (alternating users, no master credentials)."
  role          = aws_iam_role.rotation.arn

  runtime          = "python3.11"
  handler          = "lambda_function.lambda_handler"
  filename         = data.archive_file.rotation.output_path
  source_code_hash = data.archive_file.rotation.output_base64sha256

  timeout     = var.rotation_timeout_seconds
  memory_size = 256

  environment {
    variables = {
      # The only secret this function will rotate (defence in depth on top of IAM).
      SECRET_ARN              = aws_secretsmanager_secret.app.arn
      # Used to refresh host/port of new versions from the instance's Endpoint.
      DB_INSTANCE_IDENTIFIER  = aws_db_instance.ledger.identifier
      CLONE_SUFFIX            = "_clone"
      PASSWORD_LENGTH         = "40"
      PG_CONNECT_TIMEOUT      = "5"
      PG_STATEMENT_TIMEOUT_MS = "5000"
      PG_SSLMODE              = "prefer"
    }
  }

  dynamic "vpc_config" {
    for_each = length(var.rotation_subnet_ids) > 0 ? [1] : []
    content {
      subnet_ids         = var.rotation_subnet_ids
      security_group_ids = var.rotation_security_group_ids
    }
  }

  # The log group above has the function's default name; create it (and the
  # role's policy) before the function can run.
  depends_on = [
    aws_iam_role_policy.rotation,
    aws_iam_role_policy.rotation_vpc,
    aws_cloudwatch_log_group.rotation,
  ]
}

# Lets Secrets Manager (and only for this secret) invoke the function.
resource "aws_lambda_permission" "secretsmanager_invoke" {
  statement_id  = "AllowSecretsManagerRotation"
  action        = "lambda:InvokeFunction"
  function_name = aws_lambda_function.rotation.function_name
  principal     = "secretsmanager.amazonaws.com"
  source_arn    = aws_secretsmanager_secret.app.arn
}
