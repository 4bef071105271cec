variable "harness_principal_arn" {
  type        = string
  description = "ARN of the only principal allowed to assume the application and operator roles."

  validation {
    condition     = startswith(var.harness_principal_arn, "arn:")
    error_message = "harness_principal_arn must be an ARN."
  }
}

variable "instance_class" {
  type        = string
  description = "Instance class of the primary and of the standby (kept identical so the standby keeps up with replication and can carry the full load after promotion)."
  default     = "db.m6g.large"
}

variable "allocated_storage_gb" {
  type    = number
  default = 100
}

variable "protect_from_destroy" {
  type        = bool
  description = "Deletion protection and final snapshots on the ledger databases. Off by default so drill environments can be torn down; turn on in production."
  default     = false
}
