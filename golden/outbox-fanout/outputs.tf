output "queue_url" {
  description = "URL of the orders queue."
  value       = aws_sqs_queue.orders.url
}

output "dlq_url" {
  description = "URL of the orders dead-letter queue."
  value       = aws_sqs_queue.orders_dlq.url
}

output "topic_arn" {
  description = "ARN of the order-events topic."
  value       = aws_sns_topic.order_events.arn
}

output "fulfilment_queue_url" {
  description = "URL of the queue order.placed events fan out to."
  value       = aws_sqs_queue.fulfilment.url
}

output "refunds_queue_url" {
  description = "URL of the queue order.cancelled events fan out to."
  value       = aws_sqs_queue.refunds.url
}

output "worker_role_arn" {
  description = "Role the worker runs as."
  value       = aws_iam_role.worker.arn
}

output "producer_role_arn" {
  description = "Role the producer runs as."
  value       = aws_iam_role.producer.arn
}

output "db_instance_identifier" {
  description = "Identifier of the orders database instance."
  value       = aws_db_instance.orders.identifier
}
