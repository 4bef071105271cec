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
  description = "Principal that runs the producer and the workers"
}

resource "aws_sqs_queue" "dlq" {
  name                      = "ledger-postings-dlq.fifo"
  fifo_queue                = true
  message_retention_seconds = 1209600
  sqs_managed_sse_enabled   = true
}

resource "aws_sqs_queue" "postings" {
  name                        = "ledger-postings.fifo"
  fifo_queue                  = true
  content_based_deduplication = false
  visibility_timeout_seconds  = 60
  message_retention_seconds   = 1209600
  sqs_managed_sse_enabled     = true
  redrive_policy = jsonencode({
    deadLetterTargetArn = aws_sqs_queue.dlq.arn
    maxReceiveCount     = 5
  })
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

resource "aws_iam_role" "worker" {
  name               = "ledger-worker"
  assume_role_policy = data.aws_iam_policy_document.trust.json
}

resource "aws_iam_role" "producer" {
  name               = "ledger-producer"
  assume_role_policy = data.aws_iam_policy_document.trust.json
}

data "aws_iam_policy_document" "worker" {
  statement {
    actions   = ["sqs:ReceiveMessage", "sqs:DeleteMessage", "sqs:ChangeMessageVisibility"]
    resources = [aws_sqs_queue.postings.arn]
  }
  statement {
    actions   = ["sqs:SendMessage"]
    resources = [aws_sqs_queue.dlq.arn]
  }
  statement {
    actions   = ["sqs:GetQueueAttributes", "sqs:GetQueueUrl"]
    resources = [aws_sqs_queue.postings.arn, aws_sqs_queue.dlq.arn]
  }
}

data "aws_iam_policy_document" "producer" {
  statement {
    actions   = ["sqs:SendMessage", "sqs:GetQueueAttributes", "sqs:GetQueueUrl"]
    resources = [aws_sqs_queue.postings.arn]
  }
}

resource "aws_iam_role_policy" "worker" {
  name   = "sqs"
  role   = aws_iam_role.worker.id
  policy = data.aws_iam_policy_document.worker.json
}

resource "aws_iam_role_policy" "producer" {
  name   = "sqs"
  role   = aws_iam_role.producer.id
  policy = data.aws_iam_policy_document.producer.json
}

resource "random_password" "db" {
  length  = 32
  special = false
}

resource "aws_db_instance" "ledger" {
  identifier          = "ledger-db"
  engine              = "postgres"
  engine_version      = "16"
  instance_class      = "db.t4g.micro"
  allocated_storage   = 20
  db_name             = "ledger"
  username            = "ledger_admin"
  password            = random_password.db.result
  storage_encrypted   = true
  publicly_accessible = false
  skip_final_snapshot = true
}

output "queue_url" {
  value = aws_sqs_queue.postings.url
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
  value = aws_db_instance.ledger.identifier
}
