# Where the application finds its database. The runbook repoints it after a restore, so
# Terraform writes it once and leaves later values alone.
resource "aws_secretsmanager_secret" "endpoint" {
  name        = "ledger/db-endpoint"
  description = "Where the ledger application connects: host, port, username, dbname."
}

resource "aws_secretsmanager_secret_version" "endpoint" {
  secret_id = aws_secretsmanager_secret.endpoint.id
  secret_string = jsonencode({
    host     = aws_db_instance.ledger.address
    port     = aws_db_instance.ledger.port
    username = aws_db_instance.ledger.username
    dbname   = aws_db_instance.ledger.db_name
  })

  lifecycle {
    ignore_changes = [secret_string]
  }
}
