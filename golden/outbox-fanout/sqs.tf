locals {
  # The worker holds a message for this long per receive and re-extends it by this much on
  # every heartbeat (see worker/lease.py). Short, so that a killed worker's message is
  # visible again within seconds; the heartbeat covers work that takes longer.
  visibility_timeout_seconds = 10

  # Poison is received this many times, then SQS moves it to the DLQ on the next receive.
  # The worker releases poison at once, so these receives take milliseconds. Faults
  # (a killed worker, a lapsed lease during an SQS outage) also add receives to valid
  # orders, so the bound is the highest the contract allows, not the lowest.
  max_receive_count = 5
}

resource "aws_sqs_queue" "orders_dlq" {
  name = "orders-dlq"

  # Dead letters wait for a human: keep them as long as SQS allows (14 days).
  message_retention_seconds = 1209600
  sqs_managed_sse_enabled   = true
}

resource "aws_sqs_queue" "orders" {
  name = "orders"

  visibility_timeout_seconds = local.visibility_timeout_seconds
  receive_wait_time_seconds  = 2
  message_retention_seconds  = 345600
  sqs_managed_sse_enabled    = true

  redrive_policy = jsonencode({
    deadLetterTargetArn = aws_sqs_queue.orders_dlq.arn
    maxReceiveCount     = local.max_receive_count
  })
}
