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

# Primary Region. Credentials and endpoints come from the environment / harness.
provider "aws" {
  region = "us-east-1"
}

# Disaster-recovery Region for the standby and its endpoint secret.
provider "aws" {
  alias  = "dr"
  region = "us-west-2"
}
