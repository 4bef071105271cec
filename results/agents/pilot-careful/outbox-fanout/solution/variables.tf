variable "harness_principal_arn" {
  description = "ARN of the principal that runs the order service (producer) and the workers. It is the only principal trusted by the producer and worker roles."
  type        = string

  validation {
    condition     = startswith(var.harness_principal_arn, "arn:")
    error_message = "harness_principal_arn must be a principal ARN (a wildcard would let anyone assume the roles)."
  }
}

variable "name" {
  description = "Name stem for every resource of this stack."
  type        = string
  default     = "orders"
}
