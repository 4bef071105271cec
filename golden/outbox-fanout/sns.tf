# One event per recorded order on the order-events topic; SNS fans each out by its
# event_type message attribute: order.placed to fulfilment, order.cancelled to refunds,
# as the raw event (the queues' consumers read the event, not an SNS envelope).
resource "aws_sns_topic" "order_events" {
  name = "order-events"
}

resource "aws_sqs_queue" "fulfilment" {
  name                      = "fulfilment"
  message_retention_seconds = 345600
  sqs_managed_sse_enabled   = true
}

resource "aws_sqs_queue" "refunds" {
  name                      = "refunds"
  message_retention_seconds = 345600
  sqs_managed_sse_enabled   = true
}

resource "aws_sns_topic_subscription" "fulfilment" {
  topic_arn            = aws_sns_topic.order_events.arn
  protocol             = "sqs"
  endpoint             = aws_sqs_queue.fulfilment.arn
  raw_message_delivery = true
  filter_policy        = jsonencode({ event_type = ["order.placed"] })
}

resource "aws_sns_topic_subscription" "refunds" {
  topic_arn            = aws_sns_topic.order_events.arn
  protocol             = "sqs"
  endpoint             = aws_sqs_queue.refunds.arn
  raw_message_delivery = true
  filter_policy        = jsonencode({ event_type = ["order.cancelled"] })
}

# Only this topic may send to the fan-out queues: SNS acts for whoever owns a topic, so
# each policy names the topic (aws:SourceArn), not just the service.
resource "aws_sqs_queue_policy" "fulfilment" {
  queue_url = aws_sqs_queue.fulfilment.id
  policy = jsonencode({
    Version = "2012-10-17"
    Statement = [{
      Sid       = "OrderEventsOnly"
      Effect    = "Allow"
      Principal = { Service = "sns.amazonaws.com" }
      Action    = "sqs:SendMessage"
      Resource  = aws_sqs_queue.fulfilment.arn
      Condition = { ArnEquals = { "aws:SourceArn" = aws_sns_topic.order_events.arn } }
    }]
  })
}

resource "aws_sqs_queue_policy" "refunds" {
  queue_url = aws_sqs_queue.refunds.id
  policy = jsonencode({
    Version = "2012-10-17"
    Statement = [{
      Sid       = "OrderEventsOnly"
      Effect    = "Allow"
      Principal = { Service = "sns.amazonaws.com" }
      Action    = "sqs:SendMessage"
      Resource  = aws_sqs_queue.refunds.arn
      Condition = { ArnEquals = { "aws:SourceArn" = aws_sns_topic.order_events.arn } }
    }]
  })
}
