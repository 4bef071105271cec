# Both roles trust exactly one principal: the harness / order-service principal.
# Permissions are granted only here (identity policies); there are no queue policies and
# the queues use SQS-managed encryption, so no KMS key policy grants anything either.

data "aws_iam_policy_document" "trust_harness" {
  statement {
    sid     = "TrustHarnessPrincipalOnly"
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
  name                 = "${var.name_prefix}-worker"
  description          = "Order pipeline workers: consume the orders queue, dead-letter poison."
  assume_role_policy   = data.aws_iam_policy_document.trust_harness.json
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
      "sqs:GetQueueAttributes",
      "sqs:GetQueueUrl",
    ]
    resources = [aws_sqs_queue.orders.arn]
  }

  statement {
    sid    = "DeadLetterPoison"
    effect = "Allow"
    actions = [
      "sqs:SendMessage",
      "sqs:GetQueueAttributes",
      "sqs:GetQueueUrl",
    ]
    resources = [aws_sqs_queue.orders_dlq.arn]
  }
}

resource "aws_iam_role_policy" "worker" {
  name   = "orders-queue-consumer"
  role   = aws_iam_role.worker.id
  policy = data.aws_iam_policy_document.worker.json
}

# ------------------------------------------------------------------ producer

resource "aws_iam_role" "producer" {
  name                 = "${var.name_prefix}-producer"
  description          = "Order service: publish order events to the orders queue."
  assume_role_policy   = data.aws_iam_policy_document.trust_harness.json
  max_session_duration = 3600
}

data "aws_iam_policy_document" "producer" {
  statement {
    sid    = "PublishOrders"
    effect = "Allow"
    actions = [
      "sqs:SendMessage",
      "sqs:GetQueueAttributes",
      "sqs:GetQueueUrl",
    ]
    resources = [aws_sqs_queue.orders.arn]
  }
}

resource "aws_iam_role_policy" "producer" {
  name   = "orders-queue-producer"
  role   = aws_iam_role.producer.id
  policy = data.aws_iam_policy_document.producer.json
}
