# Orders queue and its dead-letter queue.
#
# Retention: SQS keeps the *original* enqueue time of a message that the redrive
# policy moves to a standard DLQ, so the DLQ keeps messages for the maximum
# (14 days): a dead letter then always has at least 10 days left, well above
# the 4 days required. Poison moved explicitly by the worker is a new message
# and gets the full 14 days.

resource "aws_sqs_queue" "orders_dlq" {
  name                      = "${var.name}-dlq"
  message_retention_seconds = 1209600
  sqs_managed_sse_enabled   = true
}

resource "aws_sqs_queue" "orders" {
  name                       = var.name
  message_retention_seconds  = 345600
  # The worker asks for the same 60 s on every receive and extends it every
  # 5 s while it works, so a held message survives a 30 s AWS outage; a
  # message of a killed worker is handed back by the other workers (see the
  # worker's liveness table) rather than waiting for this timeout.
  visibility_timeout_seconds = 60
  sqs_managed_sse_enabled    = true

  # Backstop only: the worker moves poison to the DLQ itself on the first
  # receive. It never lets a valid order's receive count grow while the
  # database is down (it stops receiving and keeps extending what it holds).
  redrive_policy = jsonencode({
    deadLetterTargetArn = aws_sqs_queue.orders_dlq.arn
    maxReceiveCount     = 5
  })
}

resource "aws_sqs_queue_redrive_allow_policy" "orders_dlq" {
  queue_url = aws_sqs_queue.orders_dlq.id

  redrive_allow_policy = jsonencode({
    redrivePermission = "byQueue"
    sourceQueueArns   = [aws_sqs_queue.orders.arn]
  })
}

# The two teams' queues, fed only by the order-events topic.

locals {
  team_queues = {
    fulfilment = "order.placed"
    refunds    = "order.cancelled"
  }
}

resource "aws_sqs_queue" "team" {
  for_each = local.team_queues

  name                      = "${var.name}-${each.key}"
  message_retention_seconds = 1209600
  sqs_managed_sse_enabled   = true
}

data "aws_iam_policy_document" "team_queue" {
  for_each = local.team_queues

  statement {
    sid     = "OrderEventsTopicOnly"
    effect  = "Allow"
    actions = ["sqs:SendMessage"]

    principals {
      type        = "Service"
      identifiers = ["sns.amazonaws.com"]
    }

    resources = [aws_sqs_queue.team[each.key].arn]

    condition {
      test     = "ArnEquals"
      variable = "aws:SourceArn"
      values   = [aws_sns_topic.order_events.arn]
    }
  }
}

resource "aws_sqs_queue_policy" "team" {
  for_each = local.team_queues

  queue_url = aws_sqs_queue.team[each.key].id
  policy    = data.aws_iam_policy_document.team_queue[each.key].json
}
