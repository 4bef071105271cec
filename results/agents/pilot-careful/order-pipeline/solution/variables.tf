variable "harness_principal_arn" {
  description = "ARN of the principal that runs the order service (producer) and the workers. It is the only principal trusted by the producer and worker roles."
  type        = string

  validation {
    condition     = can(regex("^arn:aws[a-zA-Z-]*:(iam|sts)::[0-9]{12}:", var.harness_principal_arn))
    error_message = "harness_principal_arn must be an IAM/STS principal ARN."
  }
}

variable "name_prefix" {
  description = "Prefix for the names of everything this configuration creates."
  type        = string
  default     = "order-pipeline"
}

variable "db_availability_zones" {
  description = "Availability zones (in the harness region, us-east-1) for the database subnets; RDS needs at least two."
  type        = list(string)
  default     = ["us-east-1a", "us-east-1b"]

  validation {
    condition     = length(var.db_availability_zones) >= 2
    error_message = "A DB subnet group needs subnets in at least two availability zones."
  }
}
