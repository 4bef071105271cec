locals {
  # Only the harness principal may assume either role.
  assume_by_harness = jsonencode({
    Version = "2012-10-17"
    Statement = [{
      Effect    = "Allow"
      Principal = { AWS = var.harness_principal_arn }
      Action    = "sts:AssumeRole"
    }]
  })
}

resource "aws_iam_role" "worker" {
  name               = "order-worker"
  description        = "Records orders from the orders queue and publishes their events."
  assume_role_policy = local.assume_by_harness
}

# Consume only: receive, delete when recorded, extend visibility while working (and
# release poison). No GetQueueAttributes: the worker needs nothing from the queue's settings.
resource "aws_iam_role_policy" "worker_consume_orders" {
  name = "consume-orders"
  role = aws_iam_role.worker.id
  policy = jsonencode({
    Version = "2012-10-17"
    Statement = [{
      Sid    = "ConsumeOrders"
      Effect = "Allow"
      Action = [
        "sqs:ReceiveMessage",
        "sqs:DeleteMessage",
        "sqs:ChangeMessageVisibility",
      ]
      Resource = aws_sqs_queue.orders.arn
    }]
  })
}

# Publish only, to the order-events topic.
resource "aws_iam_role_policy" "worker_publish_events" {
  name = "publish-order-events"
  role = aws_iam_role.worker.id
  policy = jsonencode({
    Version = "2012-10-17"
    Statement = [{
      Sid      = "PublishOrderEvents"
      Effect   = "Allow"
      Action   = "sns:Publish"
      Resource = aws_sns_topic.order_events.arn
    }]
  })
}

resource "aws_iam_role" "producer" {
  name               = "order-producer"
  description        = "Sends orders to the orders queue."
  assume_role_policy = local.assume_by_harness
}

resource "aws_iam_role_policy" "producer_send_orders" {
  name = "send-orders"
  role = aws_iam_role.producer.id
  policy = jsonencode({
    Version = "2012-10-17"
    Statement = [{
      Sid      = "SendOrders"
      Effect   = "Allow"
      Action   = "sqs:SendMessage"
      Resource = aws_sqs_queue.orders.arn
    }]
  })
}
