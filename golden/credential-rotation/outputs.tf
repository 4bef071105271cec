output "db_instance_identifier" {
  description = "Identifier of the ledger's DB instance."
  value       = aws_db_instance.ledger.identifier
}

output "app_secret_arn" {
  description = "The application's database credentials (rotated)."
  value       = aws_secretsmanager_secret.app.arn
}

output "master_secret_arn" {
  description = "The master user's credentials."
  value       = aws_secretsmanager_secret.master.arn
}

output "rotation_function_arn" {
  description = "The function that rotates the application's credentials."
  value       = aws_lambda_function.rotation.arn
}

output "app_role_arn" {
  description = "Role the application runs as."
  value       = aws_iam_role.app.arn
}

output "rotation_role_arn" {
  description = "The rotation function's execution role."
  value       = aws_iam_role.rotation.arn
}
