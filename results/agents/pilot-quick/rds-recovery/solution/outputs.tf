output "db_instance_identifier" {
  value = aws_db_instance.ledger.identifier
}

output "endpoint_secret_arn" {
  value = aws_secretsmanager_secret.endpoint.arn
}

output "app_role_arn" {
  value = aws_iam_role.app.arn
}

output "operator_role_arn" {
  value = aws_iam_role.operator.arn
}
