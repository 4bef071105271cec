variable "region" {
  description = "AWS region of the stack."
  type        = string
  default     = "eu-west-1"
}

variable "environment" {
  description = "Deployment environment (prod, staging)."
  type        = string
  default     = "prod"
}

variable "service" {
  description = "Service name, the prefix of every resource name."
  type        = string
  default     = "orders"
}

variable "event_types" {
  description = "Order event types the notifications consumer handles (its subscription's filter policy, on the event body)."
  type        = list(string)
  default     = ["order.created", "order.paid", "order.cancelled"]
}

variable "fulfilment_event_types" {
  description = "Order event types the fulfilment worker handles (its subscription's filter policy, on the event_type message attribute)."
  type        = list(string)
  default     = ["order.created", "order.paid"]
}

variable "consumer_timeout_seconds" {
  description = "Timeout of the notifications Lambda function."
  type        = number
  default     = 3
}

variable "consumer_memory_mb" {
  description = "Memory of the notifications Lambda function."
  type        = number
  default     = 256
}

variable "consumer_reserved_concurrency" {
  description = "Reserved concurrency of the notifications Lambda function: caps its DynamoDB write rate."
  type        = number
  default     = 5
}

variable "consumer_batch_size" {
  description = "Messages per Lambda invocation."
  type        = number
  default     = 10
}

variable "max_receive_count" {
  # AWS advises at least 5 for Lambda consumers, so that receives lost to throttling do
  # not send good messages to the DLQ.
  description = "Receives before a message goes to its dead-letter queue."
  type        = number
  default     = 5
}

variable "lambda_package" {
  description = "Path of the notifications consumer's deployment package, built by scripts/package_lambda.py."
  type        = string
  default     = "../dist/order-notifier.zip"
}

variable "log_retention_days" {
  description = "Retention of the consumers' CloudWatch log groups."
  type        = number
  default     = 30
}

variable "fulfilment_image" {
  description = "Container image of the fulfilment worker."
  type        = string
  default     = "123456789012.dkr.ecr.eu-west-1.amazonaws.com/orders/fulfilment-worker:latest"
}

variable "db_instance_class" {
  description = "Instance class of the fulfilment database."
  type        = string
  default     = "db.t4g.micro"
}
