# The master user's credentials, for the DBA. The rotation function never reads them: each
# application user changes its own password. Never rotated by the drill.
resource "aws_secretsmanager_secret" "master" {
  name        = "ledger/db-master"
  description = "Master user of the ledger database (the rotation function's)."
}

resource "aws_secretsmanager_secret_version" "master" {
  secret_id = aws_secretsmanager_secret.master.id
  secret_string = jsonencode({
    engine   = "postgres"
    host     = aws_db_instance.ledger.address
    port     = aws_db_instance.ledger.port
    username = aws_db_instance.ledger.username
    password = random_password.master.result
    dbname   = aws_db_instance.ledger.db_name
  })
}

resource "random_password" "app" {
  length  = 32
  special = false
}

# The application's credentials, rotated with alternating users: each rotation gives the
# other of the two users the DBA made (ledger_app, ledger_app_clone) a new password, so the
# user that is AWSCURRENT keeps working while the next one is prepared.
resource "aws_secretsmanager_secret" "app" {
  name        = "ledger/db-app"
  description = "The ledger application's database credentials (rotated)."
}

resource "aws_secretsmanager_secret_version" "app" {
  secret_id = aws_secretsmanager_secret.app.id
  secret_string = jsonencode({
    engine    = "postgres"
    host      = aws_db_instance.ledger.address
    port      = aws_db_instance.ledger.port
    username = "ledger_app"
    password = random_password.app.result
    dbname   = aws_db_instance.ledger.db_name
  })

  # Rotation writes the next versions: Terraform sets the first one only.
  lifecycle {
    ignore_changes = [secret_string, version_stages]
  }
}

resource "aws_secretsmanager_secret_rotation" "app" {
  secret_id           = aws_secretsmanager_secret.app.id
  rotation_lambda_arn = aws_lambda_function.rotation.arn

  rotation_rules {
    automatically_after_days = 30
  }

  depends_on = [aws_lambda_permission.secrets_manager, aws_secretsmanager_secret_version.app]
}
