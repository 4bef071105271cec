# The deployment package, built from rotation/ at plan time.
data "archive_file" "rotation" {
  type        = "zip"
  source_dir  = "${path.module}/rotation"
  output_path = "${path.module}/build/rotation.zip"
}

resource "aws_lambda_function" "rotation" {
  function_name    = "ledger-credentials-rotation"
  description      = "Rotates the ledger application's database credentials (alternating users)."
  role             = aws_iam_role.rotation.arn
  runtime          = "python3.11"
  handler          = "handler.handle"
  filename         = data.archive_file.rotation.output_path
  source_code_hash = data.archive_file.rotation.output_base64sha256
  timeout          = 30
}

# Secrets Manager invokes the function, for this secret only.
resource "aws_lambda_permission" "secrets_manager" {
  statement_id  = "AllowSecretsManager"
  action        = "lambda:InvokeFunction"
  function_name = aws_lambda_function.rotation.function_name
  principal     = "secretsmanager.amazonaws.com"
  source_arn    = aws_secretsmanager_secret.app.arn
}
