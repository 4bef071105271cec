terraform {
  required_providers {
    aws = {
      source  = "hashicorp/aws"
      version = "~> 6.0"
    }
  }
  # Local state only; the harness supplies the provider configuration
  # (region, credentials, endpoints).
}
