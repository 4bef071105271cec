locals {
  db_name     = "ledger"
  db_username = "ledger_admin"
}

# The application authenticates with a password the harness supplies; this one
# only exists because CreateDBInstance requires a master password. It is never
# written into the endpoint secret.
resource "random_password" "master" {
  length  = 32
  special = false
}

resource "aws_db_instance" "ledger" {
  identifier     = var.db_instance_identifier
  engine         = "postgres"
  engine_version = "16"
  instance_class = var.db_instance_class

  db_name  = local.db_name
  username = local.db_username
  password = random_password.master.result
  port     = 5432

  # Storage: encrypted with the AWS managed key (aws/rds), so restores need no
  # KMS grants on the operator role.
  allocated_storage     = 20
  max_allocated_storage = 200
  storage_type          = "gp3"
  storage_encrypted     = true

  # Availability: a synchronous standby in another AZ. An engine crash, an AZ
  # loss or a reboot with failover moves the primary in ~2 s (drill time) with
  # no acknowledged write lost; the endpoint DNS name does not change.
  multi_az               = true
  db_subnet_group_name   = aws_db_subnet_group.ledger.name
  vpc_security_group_ids = [aws_security_group.db.id]
  publicly_accessible    = false

  # Recoverability: continuous backups for point-in-time restore well past the
  # time it takes to notice a bad migration, kept even if the instance is
  # deleted.
  backup_retention_period  = var.backup_retention_days
  backup_window            = "03:00-03:30"
  maintenance_window       = "sun:04:30-sun:05:00"
  delete_automated_backups = false
  copy_tags_to_snapshot    = true

  # Deleting the ledger takes two deliberate calls (disable protection, then
  # delete), and even then leaves a final snapshot.
  deletion_protection       = true
  skip_final_snapshot       = false
  final_snapshot_identifier = "${var.db_instance_identifier}-final"

  auto_minor_version_upgrade  = true
  allow_major_version_upgrade = false
  apply_immediately           = false

  tags = { Name = var.db_instance_identifier, Service = "ledger" }
}
