"""Deploy a solution with Terraform or OpenTofu against the sandbox."""
