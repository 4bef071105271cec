variable "harness_principal_arn" {
  description = "The only principal allowed to assume the application and operator roles."
  type        = string

  validation {
    condition     = can(regex("^arn:aws[a-z-]*:(iam|sts)::[0-9]{12}:", var.harness_principal_arn))
    error_message = "harness_principal_arn must be an IAM or STS principal ARN."
  }
}
