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
  name               = "ledger-worker"
  description        = "Applies ledger postings from the postings queue."
  assume_role_policy = local.assume_by_harness
}

# Consume only: receive, delete when recorded, extend visibility while working (and
# release poison). No GetQueueAttributes: the worker needs nothing from the queue's settings.
resource "aws_iam_role_policy" "worker_consume_postings" {
  name = "consume-postings"
  role = aws_iam_role.worker.id
  policy = jsonencode({
    Version = "2012-10-17"
    Statement = [{
      Sid    = "ConsumePostings"
      Effect = "Allow"
      Action = [
        "sqs:ReceiveMessage",
        "sqs:DeleteMessage",
        "sqs:ChangeMessageVisibility",
      ]
      Resource = aws_sqs_queue.postings.arn
    }]
  })
}

resource "aws_iam_role" "producer" {
  name               = "ledger-producer"
  description        = "Sends ledger postings."
  assume_role_policy = local.assume_by_harness
}

resource "aws_iam_role_policy" "producer_send_postings" {
  name = "send-postings"
  role = aws_iam_role.producer.id
  policy = jsonencode({
    Version = "2012-10-17"
    Statement = [{
      Sid      = "SendPostings"
      Effect   = "Allow"
      Action   = "sqs:SendMessage"
      Resource = aws_sqs_queue.postings.arn
    }]
  })
}
