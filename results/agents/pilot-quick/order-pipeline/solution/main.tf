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
  description = "Principal allowed to assume the worker and producer roles."
}

locals {
  name = "order-pipeline"
}

# ---------------------------------------------------------------- SQS

resource "aws_sqs_queue" "dlq" {
  name                      = "${local.name}-orders-dlq"
  message_retention_seconds = 1209600 # 14 days
  sqs_managed_sse_enabled   = true
}

resource "aws_sqs_queue" "orders" {
  name                       = "${local.name}-orders"
  message_retention_seconds  = 604800 # 7 days
  visibility_timeout_seconds = 30
  receive_wait_time_seconds  = 5
  sqs_managed_sse_enabled    = true

  redrive_policy = jsonencode({
    deadLetterTargetArn = aws_sqs_queue.dlq.arn
    maxReceiveCount     = 5
  })
}

# ---------------------------------------------------------------- IAM

data "aws_iam_policy_document" "trust" {
  statement {
    actions = ["sts:AssumeRole"]
    principals {
      type        = "AWS"
      identifiers = [var.harness_principal_arn]
    }
  }
}

resource "aws_iam_role" "worker" {
  name               = "${local.name}-worker"
  assume_role_policy = data.aws_iam_policy_document.trust.json
}

resource "aws_iam_role" "producer" {
  name               = "${local.name}-producer"
  assume_role_policy = data.aws_iam_policy_document.trust.json
}

data "aws_iam_policy_document" "worker" {
  statement {
    sid = "ConsumeOrders"
    actions = [
      "sqs:ReceiveMessage",
      "sqs:DeleteMessage",
      "sqs:ChangeMessageVisibility",
      "sqs:GetQueueAttributes",
      "sqs:GetQueueUrl",
    ]
    resources = [aws_sqs_queue.orders.arn]
  }
  statement {
    sid = "DeadLetter"
    actions = [
      "sqs:SendMessage",
      "sqs:GetQueueAttributes",
      "sqs:GetQueueUrl",
    ]
    resources = [aws_sqs_queue.dlq.arn]
  }
}

resource "aws_iam_role_policy" "worker" {
  name   = "sqs"
  role   = aws_iam_role.worker.id
  policy = data.aws_iam_policy_document.worker.json
}

data "aws_iam_policy_document" "producer" {
  statement {
    actions = [
      "sqs:SendMessage",
      "sqs:GetQueueAttributes",
      "sqs:GetQueueUrl",
    ]
    resources = [aws_sqs_queue.orders.arn]
  }
}

resource "aws_iam_role_policy" "producer" {
  name   = "sqs"
  role   = aws_iam_role.producer.id
  policy = data.aws_iam_policy_document.producer.json
}

# ---------------------------------------------------------------- RDS

resource "random_password" "db" {
  length           = 32
  special          = true
  override_special = "!#$%^&*()-_=+[]{}<>:?"
}

resource "aws_db_instance" "orders" {
  identifier              = "${local.name}-db"
  engine                  = "postgres"
  engine_version          = "16"
  instance_class          = "db.t4g.micro"
  allocated_storage       = 20
  storage_type            = "gp3"
  storage_encrypted       = true
  db_name                 = "orders"
  username                = "orders_admin"
  password                = random_password.db.result
  publicly_accessible     = false
  backup_retention_period = 7
  deletion_protection     = true
  skip_final_snapshot     = true
}

# ---------------------------------------------------------------- outputs

output "queue_url" {
  value = aws_sqs_queue.orders.url
}

output "dlq_url" {
  value = aws_sqs_queue.dlq.url
}

output "worker_role_arn" {
  value = aws_iam_role.worker.arn
}

output "producer_role_arn" {
  value = aws_iam_role.producer.arn
}

output "db_instance_identifier" {
  value = aws_db_instance.orders.identifier
}
