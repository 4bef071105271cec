variable "harness_principal_arn" {
  description = "The only principal allowed to assume the producer and worker roles."
  type        = string
}

variable "permissions_boundary_arn" {
  description = "The platform's workload boundary; attached to every role created here."
  type        = string
}

variable "kms_key_arn" {
  description = "The platform's org key (customer managed KMS key) used for SQS and S3 encryption."
  type        = string
}

variable "jobs_rule_arn" {
  description = "The platform's EventBridge jobs rule; the only rule allowed to send to the queue."
  type        = string
}
