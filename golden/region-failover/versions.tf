terraform {
  required_providers {
    aws = {
      source  = "hashicorp/aws"
      version = "~> 6.0"
    }
  }
}

# The standby Region: where the ledger comes back when us-east-1 is lost.
provider "aws" {
  alias  = "standby"
  region = "us-west-2"
}
