# Where the application finds its database: one secret per Region. The application uses
# whichever names the higher epoch; the runbook raises it when it moves the ledger, so that
# the old Region's secret, readable again when the Region returns, cannot move it back.
locals {
  endpoint = {
    host     = aws_db_instance.ledger.address
    port     = aws_db_instance.ledger.port
    username = aws_db_instance.ledger.username
    dbname   = aws_db_instance.ledger.db_name
  }
}

resource "aws_secretsmanager_secret" "endpoint" {
  name        = "ledger/db-endpoint"
  description = "Where the ledger application connects (us-east-1)."
}

resource "aws_secretsmanager_secret_version" "endpoint" {
  secret_id     = aws_secretsmanager_secret.endpoint.id
  secret_string = jsonencode(merge(local.endpoint, { epoch = 1 }))

  lifecycle {
    ignore_changes = [secret_string]
  }
}

resource "aws_secretsmanager_secret" "standby" {
  provider    = aws.standby
  name        = "ledger/db-endpoint"
  description = "Where the ledger application connects once it runs from us-west-2."
}

# Until a failover, the standby names the primary too, at the same epoch: the primary's
# secret wins the tie.
resource "aws_secretsmanager_secret_version" "standby" {
  provider      = aws.standby
  secret_id     = aws_secretsmanager_secret.standby.id
  secret_string = jsonencode(merge(local.endpoint, { epoch = 1 }))

  lifecycle {
    ignore_changes = [secret_string]
  }
}
