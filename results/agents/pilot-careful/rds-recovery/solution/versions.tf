# Provider configuration (region, credentials, endpoints) is supplied by the
# caller; this module only pins the providers it needs. State stays local.
terraform {
  required_version = ">= 1.5.0"

  required_providers {
    aws = {
      source  = "hashicorp/aws"
      version = "~> 6.0"
    }
    random = {
      source  = "hashicorp/random"
      version = "~> 3.0"
    }
  }
}
