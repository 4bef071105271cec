# Same queues as the golden solution; the redrive policy is its own resource here.

resource "aws_sqs_queue" "dead_letters" {
  name                      = "orders-dead-letters"
  message_retention_seconds = 1209600
  sqs_managed_sse_enabled   = true
}

resource "aws_sqs_queue" "orders" {
  name = "orders-in"
  # The worker's lease length: it re-extends it with a heartbeat while working.
  visibility_timeout_seconds = 10
  receive_wait_time_seconds  = 2
  sqs_managed_sse_enabled    = true
}

resource "aws_sqs_queue_redrive_policy" "orders" {
  queue_url = aws_sqs_queue.orders.id
  redrive_policy = jsonencode({
    deadLetterTargetArn = aws_sqs_queue.dead_letters.arn
    maxReceiveCount     = 5
  })
}
