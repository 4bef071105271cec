terraform {
  required_version = ">= 1.5"
  required_providers {
    aws = {
      source  = "hashicorp/aws"
      version = "~> 6.0"
    }
  }
}

variable "harness_principal_arn" {
  type        = string
  description = "Principal that runs the producer and the workers; the only one allowed to assume the roles."
}

locals {
  name = "orders"
}

# ---------------------------------------------------------------- queues

resource "aws_sqs_queue" "dlq" {
  name                      = "${local.name}-dlq"
  message_retention_seconds = 1209600
  sqs_managed_sse_enabled   = true
}

resource "aws_sqs_queue" "orders" {
  name                       = local.name
  message_retention_seconds  = 345600
  visibility_timeout_seconds = 45
  receive_wait_time_seconds  = 2
  sqs_managed_sse_enabled    = true
  redrive_policy = jsonencode({
    deadLetterTargetArn = aws_sqs_queue.dlq.arn
    maxReceiveCount     = 5
  })
}

resource "aws_sqs_queue_redrive_allow_policy" "dlq" {
  queue_url = aws_sqs_queue.dlq.id
  redrive_allow_policy = jsonencode({
    redrivePermission = "byQueue"
    sourceQueueArns   = [aws_sqs_queue.orders.arn]
  })
}

resource "aws_sqs_queue" "fulfilment" {
  name                      = "${local.name}-fulfilment"
  message_retention_seconds = 1209600
  sqs_managed_sse_enabled   = true
}

resource "aws_sqs_queue" "refunds" {
  name                      = "${local.name}-refunds"
  message_retention_seconds = 1209600
  sqs_managed_sse_enabled   = true
}

# ---------------------------------------------------------------- topic

resource "aws_sns_topic" "events" {
  name = "${local.name}-events"
}

resource "aws_sns_topic_policy" "events" {
  arn = aws_sns_topic.events.arn
  policy = jsonencode({
    Version = "2012-10-17"
    Statement = [{
      Sid       = "WorkerPublish"
      Effect    = "Allow"
      Principal = { AWS = aws_iam_role.worker.arn }
      Action    = "sns:Publish"
      Resource  = aws_sns_topic.events.arn
    }]
  })
}

locals {
  team_queues = {
    fulfilment = { queue = aws_sqs_queue.fulfilment, event_type = "order.placed" }
    refunds    = { queue = aws_sqs_queue.refunds, event_type = "order.cancelled" }
  }
}

resource "aws_sqs_queue_policy" "team" {
  for_each  = local.team_queues
  queue_url = each.value.queue.id
  policy = jsonencode({
    Version = "2012-10-17"
    Statement = [{
      Sid       = "FromOrderEventsTopic"
      Effect    = "Allow"
      Principal = { Service = "sns.amazonaws.com" }
      Action    = "sqs:SendMessage"
      Resource  = each.value.queue.arn
      Condition = {
        ArnEquals = { "aws:SourceArn" = aws_sns_topic.events.arn }
      }
    }]
  })
}

resource "aws_sns_topic_subscription" "team" {
  for_each             = local.team_queues
  topic_arn            = aws_sns_topic.events.arn
  protocol             = "sqs"
  endpoint             = each.value.queue.arn
  raw_message_delivery = true
  filter_policy_scope  = "MessageAttributes"
  filter_policy        = jsonencode({ event_type = [each.value.event_type] })
  depends_on           = [aws_sqs_queue_policy.team]
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

resource "aws_iam_role_policy" "worker" {
  name = "worker"
  role = aws_iam_role.worker.id
  policy = jsonencode({
    Version = "2012-10-17"
    Statement = [
      {
        Sid      = "ConsumeOrders"
        Effect   = "Allow"
        Action   = ["sqs:ReceiveMessage", "sqs:DeleteMessage", "sqs:ChangeMessageVisibility"]
        Resource = aws_sqs_queue.orders.arn
      },
      {
        Sid      = "MovePoisonToDlq"
        Effect   = "Allow"
        Action   = ["sqs:SendMessage"]
        Resource = aws_sqs_queue.dlq.arn
      },
      {
        Sid      = "PublishEvents"
        Effect   = "Allow"
        Action   = ["sns:Publish"]
        Resource = aws_sns_topic.events.arn
      },
    ]
  })
}

resource "aws_iam_role" "producer" {
  name               = "${local.name}-producer"
  assume_role_policy = data.aws_iam_policy_document.trust.json
}

resource "aws_iam_role_policy" "producer" {
  name = "producer"
  role = aws_iam_role.producer.id
  policy = jsonencode({
    Version = "2012-10-17"
    Statement = [{
      Sid      = "SendOrders"
      Effect   = "Allow"
      Action   = ["sqs:SendMessage"]
      Resource = aws_sqs_queue.orders.arn
    }]
  })
}

# ---------------------------------------------------------------- RDS

resource "aws_db_instance" "orders" {
  identifier                  = "${local.name}-db"
  engine                      = "postgres"
  engine_version              = "16"
  instance_class              = "db.t4g.micro"
  allocated_storage           = 20
  storage_type                = "gp3"
  storage_encrypted           = true
  db_name                     = "orders"
  username                    = "orders_admin"
  manage_master_user_password = true
  publicly_accessible         = false
  backup_retention_period     = 7
  deletion_protection         = true
  skip_final_snapshot         = false
  final_snapshot_identifier   = "${local.name}-db-final"
  copy_tags_to_snapshot       = true
  auto_minor_version_upgrade  = true
}

# ---------------------------------------------------------------- outputs

output "queue_url" { value = aws_sqs_queue.orders.id }
output "dlq_url" { value = aws_sqs_queue.dlq.id }
output "topic_arn" { value = aws_sns_topic.events.arn }
output "fulfilment_queue_url" { value = aws_sqs_queue.fulfilment.id }
output "refunds_queue_url" { value = aws_sqs_queue.refunds.id }
output "worker_role_arn" { value = aws_iam_role.worker.arn }
output "producer_role_arn" { value = aws_iam_role.producer.arn }
output "db_instance_identifier" { value = aws_db_instance.orders.identifier }
