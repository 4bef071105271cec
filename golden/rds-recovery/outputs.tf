output "db_instance_identifier" {
  description = "Identifier of the ledger's DB instance."
  value       = aws_db_instance.ledger.identifier
}

output "endpoint_secret_arn" {
  description = "The secret the application reads its database endpoint from."
  value       = aws_secretsmanager_secret.endpoint.arn
}

output "app_role_arn" {
  description = "Role the application runs as."
  value       = aws_iam_role.app.arn
}

output "operator_role_arn" {
  description = "Role the recovery runbook runs as."
  value       = aws_iam_role.operator.arn
}
