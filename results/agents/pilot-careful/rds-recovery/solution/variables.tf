variable "harness_principal_arn" {
  description = "The only principal allowed to assume the application and operator roles."
  type        = string
}

variable "db_instance_identifier" {
  description = "Identifier of the ledger DB instance. Instances the runbook restores are named <this>-r<epoch>."
  type        = string
  default     = "ledger-db"
}

variable "db_instance_class" {
  description = "Instance class of the ledger database."
  type        = string
  default     = "db.m6g.large"
}

variable "backup_retention_days" {
  description = <<-EOT
    Days of automated backups (point-in-time recovery window). Bad migrations are
    typically noticed days later, so keep the maximum RDS allows.
  EOT
  type        = number
  default     = 35

  validation {
    condition     = var.backup_retention_days >= 7 && var.backup_retention_days <= 35
    error_message = "Keep at least 7 days (bad migrations are found late) and at most 35 (the RDS maximum)."
  }
}

variable "vpc_cidr" {
  description = "CIDR block of the VPC holding the ledger database."
  type        = string
  default     = "10.42.0.0/16"
}

variable "db_availability_zones" {
  description = "Availability Zones for the database subnets (at least two; three lets RDS replace a lost standby)."
  type        = list(string)
  default     = ["us-east-1a", "us-east-1b", "us-east-1c"]

  validation {
    condition     = length(var.db_availability_zones) >= 2
    error_message = "A Multi-AZ instance needs subnets in at least two Availability Zones."
  }
}
