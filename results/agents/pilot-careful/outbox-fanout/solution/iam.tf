data "aws_iam_policy_document" "assume_by_harness" {
  statement {
    sid     = "HarnessOnly"
    effect  = "Allow"
    actions = ["sts:AssumeRole"]

    principals {
      type        = "AWS"
      identifiers = [var.harness_principal_arn]
    }
  }
}

# ------------------------------------------------------------------ worker

resource "aws_iam_role" "worker" {
  name                 = "${var.name}-worker"
  description          = "Order workers: consume the orders queue, move poison to its DLQ, publish order events."
  assume_role_policy   = data.aws_iam_policy_document.assume_by_harness.json
  max_session_duration = 3600
}

data "aws_iam_policy_document" "worker" {
  statement {
    sid    = "ConsumeOrders"
    effect = "Allow"
    actions = [
      "sqs:ReceiveMessage",
      "sqs:DeleteMessage",
      "sqs:ChangeMessageVisibility",
    ]
    resources = [aws_sqs_queue.orders.arn]
  }

  statement {
    sid       = "MovePoisonToDeadLetterQueue"
    effect    = "Allow"
    actions   = ["sqs:SendMessage"]
    resources = [aws_sqs_queue.orders_dlq.arn]
  }

  statement {
    sid       = "PublishOrderEvents"
    effect    = "Allow"
    actions   = ["sns:Publish"]
    resources = [aws_sns_topic.order_events.arn]
  }
}

resource "aws_iam_role_policy" "worker" {
  name   = "orders-worker"
  role   = aws_iam_role.worker.id
  policy = data.aws_iam_policy_document.worker.json
}

# ---------------------------------------------------------------- producer

resource "aws_iam_role" "producer" {
  name                 = "${var.name}-producer"
  description          = "Order service: send orders to the orders queue."
  assume_role_policy   = data.aws_iam_policy_document.assume_by_harness.json
  max_session_duration = 3600
}

data "aws_iam_policy_document" "producer" {
  statement {
    sid       = "SendOrders"
    effect    = "Allow"
    actions   = ["sqs:SendMessage"]
    resources = [aws_sqs_queue.orders.arn]
  }
}

resource "aws_iam_role_policy" "producer" {
  name   = "orders-producer"
  role   = aws_iam_role.producer.id
  policy = data.aws_iam_policy_document.producer.json
}
