resource "random_password" "master" {
  length  = 32
  special = false
}

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
  # The master's password lives in the master secret, for the DBA alone.
  password = random_password.master.result

  backup_retention_period = 7
  deletion_protection     = false
  skip_final_snapshot     = true
  publicly_accessible     = false
}
