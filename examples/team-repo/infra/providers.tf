provider "aws" {
  region  = var.region
  profile = "platform-prod"

  default_tags {
    tags = {
      Team        = "orders"
      Service     = var.service
      Environment = var.environment
      ManagedBy   = "terraform"
      Repository  = "acme/orders-platform"
    }
  }
}

data "aws_caller_identity" "current" {}
data "aws_partition" "current" {}
data "aws_region" "current" {}
