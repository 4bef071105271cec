output "boundary_policy_arn" {
  description = "ARN of the permissions boundary every workload role must carry."
  value       = aws_iam_policy.workload_boundary.arn
}

output "kms_key_arn" {
  description = "ARN of the shared customer managed KMS key."
  value       = aws_kms_key.shared.arn
}

output "jobs_rule_arn" {
  description = "ARN of the EventBridge rule that delivers submitted jobs."
  value       = aws_cloudwatch_event_rule.jobs_submitted.arn
}
