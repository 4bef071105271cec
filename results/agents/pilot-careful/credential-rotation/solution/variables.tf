variable "harness_principal_arn" {
  description = "IAM principal that runs the application; the only principal (besides Lambda for the rotation role) allowed to assume the roles created here."
  type        = string

  validation {
    condition     = can(regex("^arn:aws[a-zA-Z-]*:(iam|sts)::[0-9]{12}:", var.harness_principal_arn))
    error_message = "harness_principal_arn must be an IAM or STS principal ARN."
  }
}

variable "name" {
  description = "Prefix for the names of the resources created here."
  type        = string
  default     = "ledger"
}

variable "db_name" {
  description = "Name of the ledger database created on the instance."
  type        = string
  default     = "ledger"
}

variable "app_username" {
  description = "Database user in the application secret's first version. The rotation alternates between this user and <app_username>_clone."
  type        = string
  default     = "ledger_app"

  validation {
    # Lower-case identifier so it needs no quoting, short enough that
    # "<name>_clone" still fits PostgreSQL's 63-byte identifier limit, and
    # not itself a clone name (the rotation derives the alternate by suffix).
    condition     = can(regex("^[a-z_][a-z0-9_]{0,56}$", var.app_username)) && !endswith(var.app_username, "_clone")
    error_message = "app_username must match ^[a-z_][a-z0-9_]{0,56}$ and must not end in _clone."
  }
}

variable "master_username" {
  description = "Master user of the RDS instance (kept only in the master secret)."
  type        = string
  default     = "ledger_admin"
}

variable "db_instance_class" {
  type    = string
  default = "db.t4g.micro"
}

variable "db_engine_version" {
  description = "PostgreSQL major version."
  type        = string
  default     = "15"
}

variable "db_allocated_storage" {
  type    = number
  default = 20
}

variable "db_subnet_group_name" {
  description = "Optional DB subnet group; null places the instance in the default VPC."
  type        = string
  default     = null
}

variable "db_security_group_ids" {
  description = "Optional security groups for the instance; empty uses the VPC's default group."
  type        = list(string)
  default     = []
}

variable "db_publicly_accessible" {
  type    = bool
  default = false
}

variable "db_backup_retention_days" {
  type    = number
  default = 7
}

variable "db_skip_final_snapshot" {
  description = "Skip the final snapshot on destroy (true suits a drill environment; set false for real data)."
  type        = bool
  default     = true
}

variable "rotation_interval_days" {
  type    = number
  default = 30
}

variable "rotation_timeout_seconds" {
  description = "Lambda timeout of the rotation function; each step is bounded well below it."
  type        = number
  default     = 60
}

variable "secret_recovery_window_days" {
  type    = number
  default = 7
}

variable "log_retention_days" {
  type    = number
  default = 30
}

variable "rotation_subnet_ids" {
  description = "Optional subnets to run the rotation function in (needed when the instance is reachable only inside its VPC; those subnets then also need a route to the Secrets Manager API, e.g. an interface VPC endpoint). Empty: no VPC attachment."
  type        = list(string)
  default     = []
}

variable "rotation_security_group_ids" {
  description = "Security groups of the rotation function when rotation_subnet_ids is set; they must be allowed to reach the instance on its port."
  type        = list(string)
  default     = []
}
