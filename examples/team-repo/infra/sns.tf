# order-events: every order state change, published by the orders API as a JSON event
# whose `event_type` is also sent as a message attribute. Consumers subscribe their own
# queue with a filter policy on it.

resource "aws_sns_topic" "order_events" {
  name = "order-events"
}

data "aws_iam_policy_document" "order_events_topic" {
  statement {
    sid = "OwnerAccountManages"
    actions = [
      "sns:GetTopicAttributes",
      "sns:SetTopicAttributes",
      "sns:Subscribe",
      "sns:ListSubscriptionsByTopic",
      "sns:Publish",
    ]
    resources = [aws_sns_topic.order_events.arn]

    principals {
      type        = "AWS"
      identifiers = ["arn:${data.aws_partition.current.partition}:iam::${data.aws_caller_identity.current.account_id}:root"]
    }
  }
}

resource "aws_sns_topic_policy" "order_events" {
  arn    = aws_sns_topic.order_events.arn
  policy = data.aws_iam_policy_document.order_events_topic.json
}

# Notifications get the event exactly as it was published: raw delivery, no SNS envelope.
# Filtered on the body: the orders API's older clients do not set the message attribute.
resource "aws_sns_topic_subscription" "notifications" {
  topic_arn            = aws_sns_topic.order_events.arn
  protocol             = "sqs"
  endpoint             = module.notifications_queue.queue_arn
  raw_message_delivery = true

  filter_policy_scope = "MessageBody"
  filter_policy = jsonencode({
    event_type = var.event_types
  })

  # The queue policy must exist before SNS tries its first delivery.
  depends_on = [aws_sqs_queue_policy.notifications]
}

# Fulfilment keeps the SNS envelope (its worker logs the SNS message id for tracing).
resource "aws_sns_topic_subscription" "fulfilment" {
  topic_arn            = aws_sns_topic.order_events.arn
  protocol             = "sqs"
  endpoint             = module.fulfilment_queue.queue_arn
  raw_message_delivery = false

  filter_policy_scope = "MessageAttributes"
  filter_policy = jsonencode({
    event_type = var.fulfilment_event_types
  })

  depends_on = [aws_sqs_queue_policy.fulfilment]
}

# The orders API publishes as this role (its service runs in another account's pipeline and
# assumes it through ECS task roles).
data "aws_iam_policy_document" "publisher_trust" {
  statement {
    actions = ["sts:AssumeRole"]

    principals {
      type        = "Service"
      identifiers = ["ecs-tasks.amazonaws.com"]
    }

    condition {
      test     = "StringEquals"
      variable = "aws:SourceAccount"
      values   = [data.aws_caller_identity.current.account_id]
    }
  }
}

resource "aws_iam_role" "publisher" {
  name               = "${local.name}-order-events-publisher"
  description        = "Orders API: publishes order events."
  assume_role_policy = data.aws_iam_policy_document.publisher_trust.json
}

data "aws_iam_policy_document" "publisher" {
  statement {
    sid       = "PublishOrderEvents"
    actions   = ["sns:Publish"]
    resources = [aws_sns_topic.order_events.arn]
  }
}

resource "aws_iam_role_policy" "publisher" {
  name   = "publish-order-events"
  role   = aws_iam_role.publisher.id
  policy = data.aws_iam_policy_document.publisher.json
}
