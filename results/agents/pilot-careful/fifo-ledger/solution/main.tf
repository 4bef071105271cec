# A suffix keeps several copies of this stack apart in one account.
resource "random_id" "suffix" {
  byte_length = 3
}

locals {
  name = "${var.name_prefix}-${random_id.suffix.hex}"

  tags = {
    Application = "fifo-ledger"
    Stack       = local.name
  }
}
