output "db_instance_identifier" {
  description = "The ledger's RDS DB instance."
  value       = aws_db_instance.ledger.identifier
}

output "app_secret_arn" {
  description = "Secret holding the application's database credentials (rotated)."
  value       = aws_secretsmanager_secret.app.arn
}

output "master_secret_arn" {
  description = "Secret holding the instance's master user credentials."
  value       = aws_secretsmanager_secret.master.arn
}

output "rotation_function_arn" {
  description = "Lambda function that rotates app_secret_arn."
  value       = aws_lambda_function.rotation.arn
}

output "app_role_arn" {
  description = "Role the application runs as."
  value       = aws_iam_role.app.arn
}

output "rotation_role_arn" {
  description = "Execution role of the rotation function."
  value       = aws_iam_role.rotation.arn
}
