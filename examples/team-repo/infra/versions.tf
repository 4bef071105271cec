terraform {
  required_version = ">= 1.6"

  required_providers {
    aws = {
      source  = "hashicorp/aws"
      version = "~> 6.0"
    }
    random = {
      source  = "hashicorp/random"
      version = "~> 3.6"
    }
  }

  # State lives with the rest of the platform's; the lock table stops two applies at once.
  backend "s3" {
    bucket         = "acme-platform-terraform-state"
    key            = "orders/prod/terraform.tfstate"
    region         = "eu-west-1"
    dynamodb_table = "acme-platform-terraform-locks"
    encrypt        = true
  }
}
