# The foundation test stack: one of each resource family the scenarios stand on.
terraform {
  required_providers {
    aws    = { source = "hashicorp/aws", version = "~> 6.0" }
    random = { source = "hashicorp/random", version = "~> 3.0" }
  }
}

resource "aws_sqs_queue" "dlq" {
  name = "foundation-dlq"
}

resource "aws_sqs_queue" "orders" {
  name                       = "foundation-orders"
  visibility_timeout_seconds = 15
  redrive_policy = jsonencode({
    deadLetterTargetArn = aws_sqs_queue.dlq.arn
    maxReceiveCount     = 4
  })
}

resource "aws_iam_role" "worker" {
  name = "foundation-worker"
  assume_role_policy = jsonencode({
    Version   = "2012-10-17"
    Statement = [{ Effect = "Allow", Action = "sts:AssumeRole", Principal = { AWS = "arn:aws:iam::123456789012:root" } }]
  })
}

resource "aws_iam_role_policy" "worker" {
  name = "consume"
  role = aws_iam_role.worker.id
  policy = jsonencode({
    Version   = "2012-10-17"
    Statement = [{ Effect = "Allow", Action = ["sqs:ReceiveMessage", "sqs:DeleteMessage"], Resource = aws_sqs_queue.orders.arn }]
  })
}

resource "random_password" "db" {
  length  = 24
  special = false
}

resource "aws_secretsmanager_secret" "db" {
  name                    = "foundation-db-password"
  recovery_window_in_days = 0 # a test stack: delete at once, so the name is free again
}

resource "aws_secretsmanager_secret_version" "db" {
  secret_id     = aws_secretsmanager_secret.db.id
  secret_string = random_password.db.result
}

resource "aws_db_instance" "db" {
  identifier              = "foundation-db"
  engine                  = "postgres"
  engine_version          = "15"
  instance_class          = "db.t3.micro"
  allocated_storage       = 20
  username                = "app"
  password                = random_password.db.result
  storage_encrypted       = true
  backup_retention_period = 7
  skip_final_snapshot     = true
}

output "queue_url" { value = aws_sqs_queue.orders.url }
output "dlq_arn" { value = aws_sqs_queue.dlq.arn }
output "role_name" { value = aws_iam_role.worker.name }
output "db_identifier" { value = aws_db_instance.db.identifier }
output "secret_arn" { value = aws_secretsmanager_secret.db.arn }
