# Both secrets use the AWS managed key aws/secretsmanager: its key policy lets
# principals of this account use it only through Secrets Manager, so neither
# role needs any KMS permission.

# ---------------------------------------------------------------- master user
resource "aws_secretsmanager_secret" "master" {
  name_prefix             = "${var.name}-db-master-"
  description             = "Master user of the ${var.name} RDS instance. Not readable by the application or the rotation function."
  recovery_window_in_days = var.secret_recovery_window_days
}

resource "aws_secretsmanager_secret_version" "master" {
  secret_id = aws_secretsmanager_secret.master.id
  secret_string = jsonencode({
    engine   = "postgres"
    host     = aws_db_instance.ledger.address
    port     = aws_db_instance.ledger.port
    username = aws_db_instance.ledger.username
    password = random_password.master.result
    dbname   = var.db_name
  })
}

# ---------------------------------------------------------- application user
resource "random_password" "app_initial" {
  length  = 40
  special = false
}

resource "aws_secretsmanager_secret" "app" {
  name_prefix             = "${var.name}-db-app-"
  description             = "Credentials the ${var.name} application logs in with; rotated by ${local.rotation_function_name} (alternating users ${var.app_username} / ${var.app_username}_clone)."
  recovery_window_in_days = var.secret_recovery_window_days
}

# First AWSCURRENT version. The DBA creates the users from it; from then on
# the rotation function owns the secret's value and staging labels, so
# Terraform must never write them back (that would relabel revoked
# credentials AWSCURRENT).
resource "aws_secretsmanager_secret_version" "app_initial" {
  secret_id = aws_secretsmanager_secret.app.id
  secret_string = jsonencode({
    engine   = "postgres"
    host     = aws_db_instance.ledger.address
    port     = aws_db_instance.ledger.port
    username = var.app_username
    password = random_password.app_initial.result
    dbname   = var.db_name
  })

  lifecycle {
    ignore_changes = [secret_string, version_stages]
  }
}

resource "aws_secretsmanager_secret_rotation" "app" {
  secret_id           = aws_secretsmanager_secret.app.id
  rotation_lambda_arn = aws_lambda_function.rotation.arn

  rotation_rules {
    automatically_after_days = var.rotation_interval_days
  }

  # The secret must hold its first value, and Secrets Manager must be allowed
  # to invoke the function, before rotation is configured.
  depends_on = [
    aws_secretsmanager_secret_version.app_initial,
    aws_lambda_permission.secretsmanager_invoke,
  ]
}
