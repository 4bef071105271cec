resource "aws_sns_topic" "order_events" {
  name = "${var.name}-events"
}

# Replaces the default topic policy (which lets any principal of the account
# act on the topic) with one that names only the worker role.
data "aws_iam_policy_document" "order_events" {
  statement {
    sid       = "WorkersPublish"
    effect    = "Allow"
    actions   = ["sns:Publish"]
    resources = [aws_sns_topic.order_events.arn]

    principals {
      type        = "AWS"
      identifiers = [aws_iam_role.worker.arn]
    }
  }
}

resource "aws_sns_topic_policy" "order_events" {
  arn    = aws_sns_topic.order_events.arn
  policy = data.aws_iam_policy_document.order_events.json
}

# Fan-out by the `event_type` message attribute; raw delivery so each queue
# holds the event JSON itself, not an SNS envelope.
resource "aws_sns_topic_subscription" "team" {
  for_each = local.team_queues

  topic_arn            = aws_sns_topic.order_events.arn
  protocol             = "sqs"
  endpoint             = aws_sqs_queue.team[each.key].arn
  raw_message_delivery = true
  filter_policy_scope  = "MessageAttributes"
  filter_policy        = jsonencode({ event_type = [each.value] })

  # SNS must be allowed to send before the first event is published.
  depends_on = [aws_sqs_queue_policy.team]
}
