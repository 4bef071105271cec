# Postings queue: FIFO, one message group per account, deduplicated on the
# producer's MessageDeduplicationId (the posting id).
#
# Visibility timeout: workers extend the visibility of every message they
# hold every few seconds, so this only has to outlast the longest period in
# which those extensions can fail (SQS unreachable, AccessDenied or clock
# skew, each up to 30 s), with margin. A worker that dies does not leave its
# messages invisible for this long: its surviving peers (or its own
# replacement) make them visible again as soon as they see it has died.
resource "aws_sqs_queue" "postings" {
  name                        = "${local.name}-postings.fifo"
  fifo_queue                  = true
  content_based_deduplication = false

  visibility_timeout_seconds = 60
  receive_wait_time_seconds  = 2
  # 14 days (the maximum): a weekend-long consumer outage loses nothing.
  message_retention_seconds = 1209600

  sqs_managed_sse_enabled = true

  # Poison is moved to the DLQ by the workers on its first receive. The
  # redrive policy is a backstop for messages a worker cannot even look at;
  # it is set well above the number of receives a valid posting can
  # accumulate from worker crashes and restarts, so that no valid posting is
  # ever redriven.
  redrive_policy = jsonencode({
    deadLetterTargetArn = aws_sqs_queue.dlq.arn
    maxReceiveCount     = 10
  })

  tags = local.tags
}

resource "aws_sqs_queue" "dlq" {
  name                        = "${local.name}-postings-dlq.fifo"
  fifo_queue                  = true
  content_based_deduplication = false

  visibility_timeout_seconds = 60
  # 14 days: a dead letter waits to be looked at. (For FIFO queues the
  # retention clock restarts when SQS moves a message here.)
  message_retention_seconds = 1209600

  sqs_managed_sse_enabled = true

  tags = local.tags
}

# Only the postings queue may use the DLQ as its dead-letter queue.
resource "aws_sqs_queue_redrive_allow_policy" "dlq" {
  queue_url = aws_sqs_queue.dlq.id

  redrive_allow_policy = jsonencode({
    redrivePermission = "byQueue"
    sourceQueueArns   = [aws_sqs_queue.postings.arn]
  })
}
