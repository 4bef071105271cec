locals {
  # The worker holds a posting for this long per receive and re-extends it on every
  # heartbeat (worker/lease.py). While a posting is in flight its whole account waits
  # (FIFO message groups), so a killed worker's posting must come back quickly.
  visibility_timeout_seconds = 10

  # Poison is released at once and received again at once (it stays first in its group),
  # so these receives take milliseconds; on the next, SQS moves it to the DLQ and the
  # account's later postings flow again.
  max_receive_count = 5
}

resource "aws_sqs_queue" "postings_dlq" {
  name       = "ledger-postings-dlq.fifo"
  fifo_queue = true

  # Dead letters wait for a human: keep them as long as SQS allows (14 days).
  message_retention_seconds = 1209600
  sqs_managed_sse_enabled   = true
}

resource "aws_sqs_queue" "postings" {
  name       = "ledger-postings.fifo"
  fifo_queue = true
  # The producer names each posting in MessageDeduplicationId; order is per account.
  content_based_deduplication = false
  deduplication_scope         = "messageGroup"
  fifo_throughput_limit       = "perMessageGroupId"

  visibility_timeout_seconds = local.visibility_timeout_seconds
  receive_wait_time_seconds  = 2
  message_retention_seconds  = 345600
  sqs_managed_sse_enabled    = true

  redrive_policy = jsonencode({
    deadLetterTargetArn = aws_sqs_queue.postings_dlq.arn
    maxReceiveCount     = local.max_receive_count
  })
}
