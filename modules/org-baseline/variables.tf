variable "name_prefix" {
  description = "Prefix of every name this baseline creates (the organisation's)."
  type        = string
  default     = "org"

  validation {
    condition     = can(regex("^[a-z][a-z0-9-]{1,20}$", var.name_prefix))
    error_message = "name_prefix must be 2-21 lower-case letters, digits or dashes."
  }
}
