# Where the application finds its database. The runbook repoints it (new
# AWSCURRENT version) when it restores the ledger into a new instance.
#
# Encrypted with the AWS managed key (aws/secretsmanager): no customer managed
# key policy to widen, and neither role needs KMS permissions of its own.
resource "aws_secretsmanager_secret" "endpoint" {
  name_prefix = "${var.db_instance_identifier}-endpoint-"
  description = "Endpoint of the ledger database (host, port, username, dbname; no password)"
}

resource "aws_secretsmanager_secret_version" "endpoint" {
  secret_id = aws_secretsmanager_secret.endpoint.id
  secret_string = jsonencode({
    host     = aws_db_instance.ledger.address
    port     = aws_db_instance.ledger.port
    username = aws_db_instance.ledger.username
    dbname   = aws_db_instance.ledger.db_name
  })
}
