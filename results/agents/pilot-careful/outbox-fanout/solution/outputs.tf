output "queue_url" {
  description = "URL of the orders queue."
  value       = aws_sqs_queue.orders.id
}

output "dlq_url" {
  description = "URL of the orders queue's dead-letter queue."
  value       = aws_sqs_queue.orders_dlq.id
}

output "topic_arn" {
  description = "ARN of the order-events topic."
  value       = aws_sns_topic.order_events.arn
}

output "fulfilment_queue_url" {
  description = "URL of the queue the fulfilment team consumes (order.placed events)."
  value       = aws_sqs_queue.team["fulfilment"].id
}

output "refunds_queue_url" {
  description = "URL of the queue the refunds team consumes (order.cancelled events)."
  value       = aws_sqs_queue.team["refunds"].id
}

output "worker_role_arn" {
  description = "Role the workers run as."
  value       = aws_iam_role.worker.arn
}

output "producer_role_arn" {
  description = "Role the order service sends as."
  value       = aws_iam_role.producer.arn
}

output "db_instance_identifier" {
  description = "Identifier of the RDS instance."
  value       = aws_db_instance.orders.identifier
}
