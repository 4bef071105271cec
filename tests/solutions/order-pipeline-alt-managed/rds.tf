# The password is generated, never written here. It does end up in the Terraform state,
# which must be stored encrypted.
resource "random_password" "db_master" {
  length = 32
  # RDS refuses '/', '@', '"' and spaces in master passwords.
  override_special = "!#$%&*()-_=+[]{}<>:?"
}

resource "aws_db_instance" "orders" {
  identifier        = "orders-postgres"
  engine            = "postgres"
  engine_version    = "16"
  instance_class    = "db.t4g.micro"
  allocated_storage = 20
  storage_encrypted = true

  db_name  = "orders"
  username = "orders_admin"
  password = random_password.db_master.result

  publicly_accessible     = false
  backup_retention_period = 14
  deletion_protection     = true
  skip_final_snapshot     = true
}
