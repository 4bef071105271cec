resource "random_password" "db_master" {
  length = 40
  # RDS refuses '/', '@', '"' and spaces; alphanumerics also keep the
  # password safe to embed in a libpq URL.
  special = false
}

resource "aws_db_subnet_group" "ledger" {
  count = length(var.db_subnet_ids) > 0 ? 1 : 0

  name       = "${local.name}-ledger"
  subnet_ids = var.db_subnet_ids
  tags       = local.tags
}

resource "aws_db_instance" "ledger" {
  identifier = "${local.name}-ledger"

  engine                     = "postgres"
  engine_version             = "16"
  auto_minor_version_upgrade = true
  instance_class             = "db.t4g.micro"

  allocated_storage     = 20
  max_allocated_storage = 100
  storage_type          = "gp3"
  storage_encrypted     = true

  db_name  = "ledger"
  username = "ledger_admin"
  password = random_password.db_master.result
  port     = 5432

  db_subnet_group_name   = length(var.db_subnet_ids) > 0 ? aws_db_subnet_group.ledger[0].name : null
  vpc_security_group_ids = length(var.db_security_group_ids) > 0 ? var.db_security_group_ids : null
  publicly_accessible    = false
  multi_az               = false

  backup_retention_period = 7
  copy_tags_to_snapshot   = true
  apply_immediately       = true

  # This stack is created and destroyed by a test harness.
  deletion_protection = false
  skip_final_snapshot = true

  tags = local.tags
}
