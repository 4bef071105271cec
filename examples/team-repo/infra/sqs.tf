# One queue (+ DLQ) per consumer of order-events, each from our shared module.

module "notifications_queue" {
  source = "../modules/queue-with-dlq"

  name                       = "order-notifications"
  visibility_timeout_seconds = local.notifications_visibility_timeout
  max_receive_count          = var.max_receive_count
}

module "fulfilment_queue" {
  source = "../modules/queue-with-dlq"

  name                       = "order-fulfilment"
  visibility_timeout_seconds = 30
  max_receive_count          = var.max_receive_count
}

# SNS may deliver to a queue only if the queue's policy lets sns.amazonaws.com send, and
# only on behalf of our topic (aws:SourceArn), so no other topic can write to it.
data "aws_iam_policy_document" "notifications_queue" {
  statement {
    sid       = "OrderEventsTopicDelivers"
    actions   = ["sqs:SendMessage"]
    resources = [module.notifications_queue.queue_arn]

    principals {
      type        = "Service"
      identifiers = ["sns.amazonaws.com"]
    }

    condition {
      test     = "ArnEquals"
      variable = "aws:SourceArn"
      values   = [aws_sns_topic.order_events.arn]
    }
  }
}

resource "aws_sqs_queue_policy" "notifications" {
  queue_url = module.notifications_queue.queue_url
  policy    = data.aws_iam_policy_document.notifications_queue.json
}

data "aws_iam_policy_document" "fulfilment_queue" {
  statement {
    sid       = "OrderEventsTopicDelivers"
    actions   = ["sqs:SendMessage"]
    resources = [module.fulfilment_queue.queue_arn]

    principals {
      type        = "Service"
      identifiers = ["sns.amazonaws.com"]
    }

    condition {
      test     = "ArnEquals"
      variable = "aws:SourceArn"
      values   = [aws_sns_topic.order_events.arn]
    }
  }
}

resource "aws_sqs_queue_policy" "fulfilment" {
  queue_url = module.fulfilment_queue.queue_url
  policy    = data.aws_iam_policy_document.fulfilment_queue.json
}
