output "queue_url" {
  description = "URL of the postings FIFO queue."
  value       = aws_sqs_queue.postings.url
}

output "dlq_url" {
  description = "URL of the postings queue's dead-letter queue."
  value       = aws_sqs_queue.dlq.url
}

output "worker_role_arn" {
  description = "Role the ledger workers run as."
  value       = aws_iam_role.worker.arn
}

output "producer_role_arn" {
  description = "Role the payments service sends postings as."
  value       = aws_iam_role.producer.arn
}

output "db_instance_identifier" {
  description = "Identifier of the ledger's RDS PostgreSQL instance."
  value       = aws_db_instance.ledger.identifier
}
