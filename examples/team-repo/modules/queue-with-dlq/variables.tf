variable "name" {
  description = "Name of the main queue; the dead-letter queue is named \"<name>-dlq\"."
  type        = string
}

variable "visibility_timeout_seconds" {
  description = "Visibility timeout of the main queue. For a Lambda consumer, at least 6x the function timeout."
  type        = number
}

variable "max_receive_count" {
  description = "Receives after which a message is moved to the dead-letter queue."
  type        = number
  default     = 5

  validation {
    condition     = var.max_receive_count >= 1 && var.max_receive_count <= 1000
    error_message = "max_receive_count must be between 1 and 1000."
  }
}

variable "message_retention_seconds" {
  description = "How long the main queue keeps a message."
  type        = number
  default     = 345600 # 4 days
}

variable "dlq_retention_seconds" {
  description = "How long the dead-letter queue keeps a message: long enough for someone to look."
  type        = number
  default     = 1209600 # 14 days, the SQS maximum
}

variable "receive_wait_time_seconds" {
  description = "Long polling wait of the main queue."
  type        = number
  default     = 20
}

variable "tags" {
  description = "Extra tags for both queues."
  type        = map(string)
  default     = {}
}
