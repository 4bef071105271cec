# The application locates its database through these two secrets (same JSON shape):
#   {"host", "port", "username", "dbname", "epoch"}
# It uses the us-west-2 value only when its epoch is strictly higher (or us-east-1 is
# unreadable). Both start out naming the us-east-1 primary with epoch 1, so nothing
# moves until the runbook, after promoting the standby, writes a higher epoch into the
# us-west-2 secret. That higher epoch also keeps the application away from the old
# primary once us-east-1 comes back.
#
# Both secrets use the AWS managed key aws/secretsmanager, so no KMS permissions are
# needed (or granted) for reading or writing them.

locals {
  initial_endpoint = jsonencode({
    host     = aws_db_instance.ledger.address
    port     = aws_db_instance.ledger.port
    username = aws_db_instance.ledger.username
    dbname   = aws_db_instance.ledger.db_name
    epoch    = 1
  })
}

resource "aws_secretsmanager_secret" "endpoint" {
  name_prefix             = "ledger/db-endpoint-"
  description             = "Where the ledger application finds its database (us-east-1 copy)"
  recovery_window_in_days = 7

  tags = {
    Service = "ledger"
  }
}

resource "aws_secretsmanager_secret_version" "endpoint" {
  secret_id     = aws_secretsmanager_secret.endpoint.id
  secret_string = local.initial_endpoint
}

resource "aws_secretsmanager_secret" "standby_endpoint" {
  provider                = aws.dr
  name_prefix             = "ledger/db-endpoint-"
  description             = "Where the ledger application finds its database (us-west-2 copy; the failover runbook writes it)"
  recovery_window_in_days = 7

  tags = {
    Service = "ledger"
  }
}

resource "aws_secretsmanager_secret_version" "standby_endpoint" {
  provider      = aws.dr
  secret_id     = aws_secretsmanager_secret.standby_endpoint.id
  secret_string = local.initial_endpoint

  lifecycle {
    # Owned by the runbook after the first apply: re-applying must never move the
    # AWSCURRENT label back to the initial value (that would send the application back
    # to the old primary).
    ignore_changes = [secret_string, version_stages]
  }
}
