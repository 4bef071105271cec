output "queue_url" {
  description = "URL of the orders queue"
  value       = aws_sqs_queue.orders.url
}

output "dlq_url" {
  description = "URL of the orders dead-letter queue"
  value       = aws_sqs_queue.orders_dlq.url
}

output "worker_role_arn" {
  description = "Role the workers run as"
  value       = aws_iam_role.worker.arn
}

output "producer_role_arn" {
  description = "Role the order service sends as"
  value       = aws_iam_role.producer.arn
}

output "db_instance_identifier" {
  description = "Identifier of the RDS instance"
  value       = aws_db_instance.orders.identifier
}
