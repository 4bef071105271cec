locals {
  db_name         = "ledger"
  master_username = "ledger_admin"
  db_port         = 5432
}

# The application authenticates with a password the harness supplies; this one only
# exists so RDS can create the instance. It never goes into the endpoint secrets.
resource "random_password" "master" {
  length           = 32
  special          = true
  override_special = "!#$%^&*()-_=+[]{}<>:?" # RDS forbids / @ " and space
}

# --------------------------------------------------------------------------------------
# Primary: us-east-1, Multi-AZ (an AZ failure is handled by RDS failover behind the same
# endpoint, no runbook needed). Automated backups are required for read replicas.
# --------------------------------------------------------------------------------------
resource "aws_db_instance" "ledger" {
  identifier     = "ledger-db"
  engine         = "postgres"
  engine_version = "16"
  instance_class = var.instance_class
  port           = local.db_port

  allocated_storage = var.allocated_storage_gb
  storage_type      = "gp3"
  storage_encrypted = true # aws/rds key in us-east-1

  db_name  = local.db_name
  username = local.master_username
  password = random_password.master.result

  multi_az                = true
  backup_retention_period = 7
  copy_tags_to_snapshot   = true

  auto_minor_version_upgrade = true

  deletion_protection       = var.protect_from_destroy
  skip_final_snapshot       = !var.protect_from_destroy
  final_snapshot_identifier = var.protect_from_destroy ? "ledger-db-final" : null

  tags = {
    Service = "ledger"
    Role    = "primary"
  }
}

# Cross-Region read replicas of an encrypted source need a KMS key in the destination
# Region. Default key policy: administered by the account; the application and operator
# roles get no use of it (they never touch RDS storage keys).
resource "aws_kms_key" "standby_storage" {
  provider                = aws.dr
  description             = "Storage encryption for the ledger standby DB instance (us-west-2)"
  deletion_window_in_days = 30
  enable_key_rotation     = true

  tags = {
    Service = "ledger"
  }
}

resource "aws_kms_alias" "standby_storage" {
  provider      = aws.dr
  name          = "alias/ledger-db-standby"
  target_key_id = aws_kms_key.standby_storage.key_id
}

# --------------------------------------------------------------------------------------
# Standby: asynchronous cross-Region read replica in us-west-2, same size as the primary
# and Multi-AZ so that once promoted it is as resilient as the primary was.
# The runbook promotes it when us-east-1 is lost.
# --------------------------------------------------------------------------------------
resource "aws_db_instance" "standby" {
  provider = aws.dr

  identifier          = "ledger-db-standby"
  replicate_source_db = aws_db_instance.ledger.arn
  instance_class      = var.instance_class
  port                = local.db_port

  storage_encrypted = true
  kms_key_id        = aws_kms_key.standby_storage.arn

  multi_az                   = true
  auto_minor_version_upgrade = true
  copy_tags_to_snapshot      = true

  deletion_protection       = var.protect_from_destroy
  skip_final_snapshot       = !var.protect_from_destroy
  final_snapshot_identifier = var.protect_from_destroy ? "ledger-db-standby-final" : null

  tags = {
    Service = "ledger"
    Role    = "standby"
  }

  lifecycle {
    # After a failover the standby is a standalone primary; a later apply must not try
    # to turn it back into a replica. Rebuilding the replica pair is a planned change.
    ignore_changes = [replicate_source_db]
  }
}
