data "aws_iam_policy_document" "assume_by_harness" {
  statement {
    actions = ["sts:AssumeRole"]
    principals {
      type        = "AWS"
      identifiers = [var.harness_principal_arn]
    }
  }
}

data "aws_iam_policy_document" "consume_orders" {
  statement {
    sid = "ConsumeOrders"
    actions = [
      "sqs:ReceiveMessage",
      "sqs:DeleteMessage",
      "sqs:ChangeMessageVisibility",
    ]
    resources = [aws_sqs_queue.orders.arn]
  }
}

data "aws_iam_policy_document" "send_orders" {
  statement {
    sid       = "SendOrders"
    actions   = ["sqs:SendMessage"]
    resources = [aws_sqs_queue.orders.arn]
  }
}

resource "aws_iam_role" "worker" {
  name               = "orders-worker"
  assume_role_policy = data.aws_iam_policy_document.assume_by_harness.json
}

resource "aws_iam_policy" "consume_orders" {
  name   = "orders-consume"
  policy = data.aws_iam_policy_document.consume_orders.json
}

resource "aws_iam_role_policy_attachment" "worker_consume_orders" {
  role       = aws_iam_role.worker.name
  policy_arn = aws_iam_policy.consume_orders.arn
}

resource "aws_iam_role" "producer" {
  name               = "orders-producer"
  assume_role_policy = data.aws_iam_policy_document.assume_by_harness.json
}

resource "aws_iam_policy" "send_orders" {
  name   = "orders-send"
  policy = data.aws_iam_policy_document.send_orders.json
}

resource "aws_iam_role_policy_attachment" "producer_send_orders" {
  role       = aws_iam_role.producer.name
  policy_arn = aws_iam_policy.send_orders.arn
}
