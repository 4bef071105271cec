# Both roles trust exactly one principal: the harness that runs the producer
# and the workers.
data "aws_iam_policy_document" "trust_harness" {
  statement {
    sid     = "TrustHarnessOnly"
    effect  = "Allow"
    actions = ["sts:AssumeRole"]

    principals {
      type        = "AWS"
      identifiers = [var.harness_principal_arn]
    }
  }
}

# --- worker -----------------------------------------------------------------

resource "aws_iam_role" "worker" {
  name                 = "${local.name}-worker"
  description          = "Applies ledger postings from the postings FIFO queue."
  assume_role_policy   = data.aws_iam_policy_document.trust_harness.json
  max_session_duration = 3600
  tags                 = local.tags
}

data "aws_iam_policy_document" "worker" {
  statement {
    sid    = "ConsumePostings"
    effect = "Allow"
    actions = [
      "sqs:ReceiveMessage",
      "sqs:DeleteMessage",
      "sqs:ChangeMessageVisibility",
    ]
    resources = [aws_sqs_queue.postings.arn]
  }

  statement {
    sid       = "DeadLetterPoison"
    effect    = "Allow"
    actions   = ["sqs:SendMessage"]
    resources = [aws_sqs_queue.dlq.arn]
  }

  statement {
    sid    = "DescribeQueues"
    effect = "Allow"
    actions = [
      "sqs:GetQueueAttributes",
      "sqs:GetQueueUrl",
    ]
    resources = [
      aws_sqs_queue.postings.arn,
      aws_sqs_queue.dlq.arn,
    ]
  }
}

resource "aws_iam_role_policy" "worker" {
  name   = "postings-consumer"
  role   = aws_iam_role.worker.id
  policy = data.aws_iam_policy_document.worker.json
}

# --- producer ---------------------------------------------------------------

resource "aws_iam_role" "producer" {
  name                 = "${local.name}-producer"
  description          = "Publishes ledger postings to the postings FIFO queue."
  assume_role_policy   = data.aws_iam_policy_document.trust_harness.json
  max_session_duration = 3600
  tags                 = local.tags
}

data "aws_iam_policy_document" "producer" {
  statement {
    sid    = "PublishPostings"
    effect = "Allow"
    actions = [
      "sqs:SendMessage",
      "sqs:GetQueueAttributes",
      "sqs:GetQueueUrl",
    ]
    resources = [aws_sqs_queue.postings.arn]
  }
}

resource "aws_iam_role_policy" "producer" {
  name   = "postings-producer"
  role   = aws_iam_role.producer.id
  policy = data.aws_iam_policy_document.producer.json
}
