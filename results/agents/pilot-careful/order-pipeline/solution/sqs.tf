# Orders queue and its dead-letter queue.
#
# Timing contract with the worker (see worker/config.py):
#   * a receive hides a message for INITIAL_VISIBILITY (20 s, the queue default below);
#   * while a worker holds a message it keeps it hidden with a 60 s lease renewed every
#     ~15 s, so a 30 s SQS/IAM outage cannot make a held message visible to another worker;
#   * a worker that dies loses at most the 20 s initial lease, or its sibling workers hand
#     the message back at once (lease registry).
#
# Poison is forwarded to the DLQ by the worker on its first receive; the redrive policy is
# the backstop, and caps any message at 5 receives.

locals {
  max_receive_count = 5
}

resource "aws_sqs_queue" "orders_dlq" {
  name = "${var.name_prefix}-orders-dlq"

  # Dead letters wait 14 days (the SQS maximum) to be looked at. Redriven messages keep
  # their original enqueue time, so this must be longer than the source queue's retention.
  message_retention_seconds = 1209600
  sqs_managed_sse_enabled   = true
}

resource "aws_sqs_queue" "orders" {
  name = "${var.name_prefix}-orders"

  # 7 days: a consumer outage over a (long) weekend loses nothing. Contract minimum is 4 days.
  message_retention_seconds  = 604800
  visibility_timeout_seconds = 20
  receive_wait_time_seconds  = 20
  sqs_managed_sse_enabled    = true

  redrive_policy = jsonencode({
    deadLetterTargetArn = aws_sqs_queue.orders_dlq.arn
    maxReceiveCount     = local.max_receive_count
  })
}
