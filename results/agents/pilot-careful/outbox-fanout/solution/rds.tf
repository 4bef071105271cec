# PostgreSQL for the orders table and the worker's outbox.
#
# The master password is generated and kept in Secrets Manager by RDS
# (manage_master_user_password); it never appears in this configuration or in
# the Terraform state. No VPC is declared: the instance lands in the account's
# default DB subnet group and, not being publicly accessible, is reachable only
# from inside that VPC.

resource "aws_db_instance" "orders" {
  identifier     = "${var.name}-db"
  engine         = "postgres"
  engine_version = "16"
  instance_class = "db.t4g.micro"

  allocated_storage     = 20
  max_allocated_storage = 100
  storage_type          = "gp3"
  storage_encrypted     = true

  db_name                     = "orders"
  username                    = "orders_admin"
  manage_master_user_password = true

  publicly_accessible = false
  multi_az            = false

  backup_retention_period   = 7
  copy_tags_to_snapshot     = true
  deletion_protection       = true
  skip_final_snapshot       = false
  final_snapshot_identifier = "${var.name}-db-final"

  auto_minor_version_upgrade = true
}
