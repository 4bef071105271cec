resource "aws_db_instance" "orders" {
  identifier     = "orders-db"
  engine         = "postgres"
  engine_version = "16"
  instance_class = "db.t4g.micro"

  allocated_storage     = 20
  max_allocated_storage = 100
  storage_type          = "gp3"
  storage_encrypted     = true

  db_name  = "orders"
  username = "orders_admin"
  # RDS generates the password and keeps it in Secrets Manager: it is in neither the code
  # nor the Terraform state.
  manage_master_user_password = true

  publicly_accessible        = false
  backup_retention_period    = 7
  copy_tags_to_snapshot      = true
  deletion_protection        = true
  auto_minor_version_upgrade = true
  # Deletion protection is what guards the data; a final snapshot on an intentional
  # destroy is not required here.
  skip_final_snapshot = true
}
