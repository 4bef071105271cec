output "order_events_topic_arn" {
  description = "Topic the orders API publishes order events to."
  value       = aws_sns_topic.order_events.arn
}

output "publisher_role_arn" {
  description = "Role the orders API assumes to publish order events."
  value       = aws_iam_role.publisher.arn
}

output "notifications_dlq_url" {
  description = "Dead-letter queue of the notifications consumer (for the on-call runbook)."
  value       = module.notifications_queue.dlq_url
}

output "fulfilment_dlq_url" {
  description = "Dead-letter queue of the fulfilment worker (for the on-call runbook)."
  value       = module.fulfilment_queue.dlq_url
}

output "fulfilment_task_definition_arn" {
  description = "Task definition the platform's ECS service runs."
  value       = aws_ecs_task_definition.fulfilment.arn
}

output "fulfilment_db_endpoint" {
  description = "Endpoint of the fulfilment database."
  value       = aws_db_instance.fulfilment.endpoint
}
