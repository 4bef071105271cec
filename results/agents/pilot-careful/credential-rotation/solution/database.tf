resource "random_password" "master" {
  length = 40
  # Alphanumeric only: RDS refuses / " @ and spaces in master passwords, and
  # alphanumeric passwords survive any DSN or URI encoding a client may use.
  special = false
}

resource "aws_db_instance" "ledger" {
  identifier_prefix = "${var.name}-"

  engine         = "postgres"
  engine_version = var.db_engine_version
  instance_class = var.db_instance_class
  port           = 5432

  db_name  = var.db_name
  username = var.master_username
  password = random_password.master.result

  allocated_storage = var.db_allocated_storage
  storage_type      = "gp3"
  storage_encrypted = true

  db_subnet_group_name   = var.db_subnet_group_name
  vpc_security_group_ids = length(var.db_security_group_ids) > 0 ? var.db_security_group_ids : null
  publicly_accessible    = var.db_publicly_accessible

  backup_retention_period    = var.db_backup_retention_days
  copy_tags_to_snapshot      = true
  auto_minor_version_upgrade = true
  apply_immediately          = true

  skip_final_snapshot       = var.db_skip_final_snapshot
  final_snapshot_identifier = var.db_skip_final_snapshot ? null : "${var.name}-final"

  tags = {
    Name = "${var.name}-db"
  }
}
