locals {
  name = "${var.service}-${var.environment}"

  # AWS: set the source queue's visibility timeout to at least six times the function
  # timeout, so a batch that is retried does not become visible while it is still running.
  notifications_visibility_timeout = 6 * var.consumer_timeout_seconds
}
