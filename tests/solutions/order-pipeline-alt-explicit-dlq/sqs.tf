# No redrive policy: the worker moves poison to the DLQ itself (send the body unchanged,
# then delete). A valid order therefore never reaches the DLQ, however many times faults
# make it be received again.

resource "aws_sqs_queue" "orders_dlq" {
  name                      = "orders-dlq"
  message_retention_seconds = 1209600
  sqs_managed_sse_enabled   = true
}

resource "aws_sqs_queue" "orders" {
  name = "orders"
  # The worker's lease length: it re-extends it with a heartbeat while working.
  visibility_timeout_seconds = 10
  receive_wait_time_seconds  = 2
  message_retention_seconds  = 345600
  sqs_managed_sse_enabled    = true
}
