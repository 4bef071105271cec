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

provider "aws" {
  region = "us-east-1"
}

provider "aws" {
  alias  = "west"
  region = "us-west-2"
}

variable "harness_principal_arn" {
  type        = string
  description = "Principal that runs the application and the runbook."
}

locals {
  db_name     = "ledger"
  db_username = "ledger_admin"
}

resource "random_password" "master" {
  length           = 32
  special          = true
  override_special = "!#$%^&*()-_=+"
}

# Primary in us-east-1, Multi-AZ.
resource "aws_db_instance" "ledger" {
  identifier              = "ledger-db"
  engine                  = "postgres"
  engine_version          = "16"
  instance_class          = "db.m6g.large"
  allocated_storage       = 50
  storage_type            = "gp3"
  storage_encrypted       = true
  db_name                 = local.db_name
  username                = local.db_username
  password                = random_password.master.result
  multi_az                = true
  backup_retention_period = 7
  skip_final_snapshot     = true
}

resource "aws_kms_key" "standby_rds" {
  provider                = aws.west
  description             = "ledger standby RDS storage"
  deletion_window_in_days = 7
  enable_key_rotation     = true
}

# Cross-region read replica in us-west-2 (the standby).
resource "aws_db_instance" "standby" {
  provider            = aws.west
  identifier          = "ledger-db-standby"
  replicate_source_db = aws_db_instance.ledger.arn
  instance_class      = "db.m6g.large"
  storage_encrypted   = true
  kms_key_id          = aws_kms_key.standby_rds.arn
  skip_final_snapshot = true
}

locals {
  primary_endpoint = jsonencode({
    host     = aws_db_instance.ledger.address
    port     = aws_db_instance.ledger.port
    username = aws_db_instance.ledger.username
    dbname   = local.db_name
    epoch    = 1
  })
}

resource "aws_secretsmanager_secret" "endpoint" {
  name_prefix = "ledger-db-endpoint-"
}

resource "aws_secretsmanager_secret_version" "endpoint" {
  secret_id     = aws_secretsmanager_secret.endpoint.id
  secret_string = local.primary_endpoint
}

resource "aws_secretsmanager_secret" "standby_endpoint" {
  provider    = aws.west
  name_prefix = "ledger-db-endpoint-"
}

# Initially the same value as the us-east-1 secret; the runbook overwrites it.
resource "aws_secretsmanager_secret_version" "standby_endpoint" {
  provider      = aws.west
  secret_id     = aws_secretsmanager_secret.standby_endpoint.id
  secret_string = local.primary_endpoint

  lifecycle {
    ignore_changes = [secret_string, version_stages]
  }
}

data "aws_iam_policy_document" "trust" {
  statement {
    actions = ["sts:AssumeRole"]
    principals {
      type        = "AWS"
      identifiers = [var.harness_principal_arn]
    }
  }
}

resource "aws_iam_role" "app" {
  name_prefix        = "ledger-app-"
  assume_role_policy = data.aws_iam_policy_document.trust.json
}

resource "aws_iam_role_policy" "app" {
  name = "read-endpoint-secrets"
  role = aws_iam_role.app.id
  policy = jsonencode({
    Version = "2012-10-17"
    Statement = [{
      Effect   = "Allow"
      Action   = ["secretsmanager:GetSecretValue"]
      Resource = [aws_secretsmanager_secret.endpoint.arn, aws_secretsmanager_secret.standby_endpoint.arn]
    }]
  })
}

resource "aws_iam_role" "operator" {
  name_prefix        = "ledger-operator-"
  assume_role_policy = data.aws_iam_policy_document.trust.json
}

resource "aws_iam_role_policy" "operator" {
  name = "failover"
  role = aws_iam_role.operator.id
  policy = jsonencode({
    Version = "2012-10-17"
    Statement = [
      {
        Effect   = "Allow"
        Action   = ["rds:DescribeDBInstances"]
        Resource = "*"
      },
      {
        Effect   = "Allow"
        Action   = ["rds:PromoteReadReplica"]
        Resource = aws_db_instance.standby.arn
      },
      {
        Effect   = "Allow"
        Action   = ["secretsmanager:GetSecretValue"]
        Resource = [aws_secretsmanager_secret.endpoint.arn, aws_secretsmanager_secret.standby_endpoint.arn]
      },
      {
        Effect   = "Allow"
        Action   = ["secretsmanager:PutSecretValue"]
        Resource = aws_secretsmanager_secret.standby_endpoint.arn
      },
    ]
  })
}

output "db_instance_identifier" {
  value = aws_db_instance.ledger.identifier
}

output "standby_db_instance_arn" {
  value = aws_db_instance.standby.arn
}

output "endpoint_secret_arn" {
  value = aws_secretsmanager_secret.endpoint.arn
}

output "standby_endpoint_secret_arn" {
  value = aws_secretsmanager_secret.standby_endpoint.arn
}

output "app_role_arn" {
  value = aws_iam_role.app.arn
}

output "operator_role_arn" {
  value = aws_iam_role.operator.arn
}
