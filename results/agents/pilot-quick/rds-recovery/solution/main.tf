terraform {
  required_providers {
    aws = {
      source  = "hashicorp/aws"
      version = "~> 6.0"
    }
    random = {
      source  = "hashicorp/random"
      version = "~> 3.0"
    }
  }
}

variable "harness_principal_arn" {
  type        = string
  description = "Principal that runs the application and the runbook."
}

locals {
  db_identifier = "ledger-db"
  db_name       = "ledger"
  db_username   = "ledger_admin"
}

data "aws_caller_identity" "current" {}
data "aws_region" "current" {}
data "aws_partition" "current" {}

# ---------------- network ----------------
resource "aws_vpc" "ledger" {
  cidr_block           = "10.42.0.0/16"
  enable_dns_support   = true
  enable_dns_hostnames = true
  tags                 = { Name = "ledger" }
}

resource "aws_subnet" "db" {
  for_each          = { a = "us-east-1a", b = "us-east-1b", c = "us-east-1c" }
  vpc_id            = aws_vpc.ledger.id
  availability_zone = each.value
  cidr_block        = cidrsubnet(aws_vpc.ledger.cidr_block, 8, index(["a", "b", "c"], each.key))
  tags              = { Name = "ledger-db-${each.key}" }
}

resource "aws_db_subnet_group" "ledger" {
  name       = "${local.db_identifier}-subnets"
  subnet_ids = [for s in aws_subnet.db : s.id]
}

resource "aws_security_group" "db" {
  name        = "${local.db_identifier}-sg"
  description = "ledger database"
  vpc_id      = aws_vpc.ledger.id

  ingress {
    description = "PostgreSQL from inside the VPC"
    from_port   = 5432
    to_port     = 5432
    protocol    = "tcp"
    cidr_blocks = [aws_vpc.ledger.cidr_block]
  }
}

# ---------------- database ----------------
resource "random_password" "master" {
  length  = 32
  special = false
}

resource "aws_db_instance" "ledger" {
  identifier     = local.db_identifier
  engine         = "postgres"
  engine_version = "16"
  instance_class = "db.t4g.medium"

  allocated_storage = 20
  storage_type      = "gp3"
  storage_encrypted = true

  db_name  = local.db_name
  username = local.db_username
  password = random_password.master.result
  port     = 5432

  multi_az               = true
  db_subnet_group_name   = aws_db_subnet_group.ledger.name
  vpc_security_group_ids = [aws_security_group.db.id]
  publicly_accessible    = false

  backup_retention_period  = 7
  delete_automated_backups = false
  copy_tags_to_snapshot    = true

  deletion_protection       = true
  skip_final_snapshot       = false
  final_snapshot_identifier = "${local.db_identifier}-final"
}

# ---------------- endpoint secret ----------------
resource "aws_secretsmanager_secret" "endpoint" {
  name        = "${local.db_identifier}/endpoint"
  description = "Where the ledger application finds its database"
}

resource "aws_secretsmanager_secret_version" "endpoint" {
  secret_id = aws_secretsmanager_secret.endpoint.id
  secret_string = jsonencode({
    host     = aws_db_instance.ledger.address
    port     = aws_db_instance.ledger.port
    username = local.db_username
    dbname   = local.db_name
  })
}
