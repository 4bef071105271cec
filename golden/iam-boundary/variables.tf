variable "harness_principal_arn" {
  description = "The only principal allowed to assume the producer and worker roles."
  type        = string
}

variable "permissions_boundary_arn" {
  description = "The organisation's workload permissions boundary: every role carries it."
  type        = string
}

variable "kms_key_arn" {
  description = "The organisation's shared customer managed KMS key."
  type        = string
}

variable "jobs_rule_arn" {
  description = "The platform's EventBridge rule that may deliver jobs to the queue."
  type        = string
}
