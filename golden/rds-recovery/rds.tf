resource "aws_db_instance" "ledger" {
  identifier     = "ledger-db"
  engine         = "postgres"
  engine_version = "16"
  instance_class = "db.t4g.micro"

  allocated_storage = 20
  storage_type      = "gp3"
  storage_encrypted = true

  db_name  = "ledger"
  username = "ledger_admin"
  # RDS generates the password and keeps it in Secrets Manager.
  manage_master_user_password = true

  # A synchronous standby in another zone: a crash or a lost zone costs a failover (seconds),
  # not a restore, and no acknowledged transaction.
  multi_az = true

  # Point-in-time restore reaches back 7 days: a bad migration found days later can still be
  # undone.
  backup_retention_period = 7
  copy_tags_to_snapshot   = true

  # Deleting the ledger takes two deliberate steps, never one call.
  deletion_protection       = true
  skip_final_snapshot       = false
  final_snapshot_identifier = "ledger-db-final"

  publicly_accessible        = false
  auto_minor_version_upgrade = true
}
