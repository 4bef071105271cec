output "db_instance_identifier" {
  description = "The ledger's RDS DB instance (postgres, Multi-AZ, deletion protected)."
  value       = aws_db_instance.ledger.identifier
}

output "endpoint_secret_arn" {
  description = "Secret whose current value tells the application where its database is."
  value       = aws_secretsmanager_secret.endpoint.arn
  # Only hand out the secret once it has a value.
  depends_on = [aws_secretsmanager_secret_version.endpoint]
}

output "app_role_arn" {
  description = "Role the ledger application runs as."
  value       = aws_iam_role.app.arn
  depends_on  = [aws_iam_role_policy.app]
}

output "operator_role_arn" {
  description = "Role the runbook runs as."
  value       = aws_iam_role.operator.arn
  depends_on  = [aws_iam_role_policy.operator]
}
