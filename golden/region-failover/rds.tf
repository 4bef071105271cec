resource "aws_db_instance" "ledger" {
  identifier     = "ledger-db"
  engine         = "postgres"
  engine_version = "16"
  instance_class = "db.t4g.micro"

  allocated_storage = 20
  storage_type      = "gp3"

  db_name                     = "ledger"
  username                    = "ledger_admin"
  manage_master_user_password = true

  # Backups on: a read replica needs them on its source.
  multi_az                = true
  backup_retention_period = 7

  deletion_protection       = true
  skip_final_snapshot       = false
  final_snapshot_identifier = "ledger-db-final"
  publicly_accessible       = false
}

# The standby: a replica in us-west-2, streaming from the ledger. Promoted by the runbook
# when us-east-1 is lost.
resource "aws_db_instance" "standby" {
  provider = aws.standby

  identifier          = "ledger-db-standby"
  replicate_source_db = aws_db_instance.ledger.arn
  instance_class      = "db.t4g.micro"
  storage_type        = "gp3"

  publicly_accessible = false
  skip_final_snapshot = true
}
