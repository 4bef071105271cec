variable "harness_principal_arn" {
  type        = string
  description = "ARN of the principal that runs the producer and the workers. It is the only principal trusted by the worker and producer roles."

  validation {
    condition     = can(regex("^arn:[^:]+:(iam|sts)::[0-9]{12}:", var.harness_principal_arn))
    error_message = "harness_principal_arn must be an IAM or STS principal ARN."
  }
}

variable "name_prefix" {
  type        = string
  description = "Prefix for the names of the resources created here."
  default     = "fifo-ledger"

  validation {
    condition     = can(regex("^[a-z][a-z0-9-]{0,19}$", var.name_prefix))
    error_message = "name_prefix must be 1-20 lowercase letters, digits or hyphens, starting with a letter."
  }
}

variable "db_subnet_ids" {
  type        = list(string)
  description = "Private subnets for the ledger database. Empty: the account's default VPC is used."
  default     = []
}

variable "db_security_group_ids" {
  type        = list(string)
  description = "Security groups for the ledger database. Empty: the VPC's default security group is used."
  default     = []
}
