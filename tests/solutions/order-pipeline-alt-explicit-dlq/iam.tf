locals {
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
  assume_role_policy = local.assume_by_harness
}

resource "aws_iam_role_policy" "worker" {
  name = "consume-orders-and-dead-letter-poison"
  role = aws_iam_role.worker.id
  policy = jsonencode({
    Version = "2012-10-17"
    Statement = [
      {
        Sid    = "ConsumeOrders"
        Effect = "Allow"
        Action = [
          "sqs:ReceiveMessage",
          "sqs:DeleteMessage",
          "sqs:ChangeMessageVisibility",
        ]
        Resource = aws_sqs_queue.orders.arn
      },
      {
        # The explicit move of poison messages.
        Sid      = "DeadLetterPoison"
        Effect   = "Allow"
        Action   = "sqs:SendMessage"
        Resource = aws_sqs_queue.orders_dlq.arn
      },
    ]
  })
}

resource "aws_iam_role" "producer" {
  name               = "order-producer"
  assume_role_policy = local.assume_by_harness
}

resource "aws_iam_role_policy" "producer" {
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
