output "db_instance_identifier" {
  description = "The ledger's primary RDS for PostgreSQL instance (us-east-1)."
  value       = aws_db_instance.ledger.identifier
}

output "standby_db_instance_arn" {
  description = "Cross-Region read replica in us-west-2 that the runbook promotes."
  value       = aws_db_instance.standby.arn
}

output "endpoint_secret_arn" {
  description = "Endpoint secret in us-east-1."
  value       = aws_secretsmanager_secret.endpoint.arn
}

output "standby_endpoint_secret_arn" {
  description = "Endpoint secret in us-west-2 (written by the runbook on failover)."
  value       = aws_secretsmanager_secret.standby_endpoint.arn
}

output "app_role_arn" {
  value = aws_iam_role.app.arn
}

output "operator_role_arn" {
  value = aws_iam_role.operator.arn
}
