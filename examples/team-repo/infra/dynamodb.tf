# Order notifications as the consumer recorded them, one item per order, and each
# customer's running order total. The consumer writes both in one transaction, the first
# conditionally, so a redelivered event changes nothing.

resource "aws_dynamodb_table" "notifications" {
  name         = "order-notifications"
  billing_mode = "PAY_PER_REQUEST"
  hash_key     = "order_id"

  attribute {
    name = "order_id"
    type = "S"
  }

  point_in_time_recovery {
    enabled = true
  }

  server_side_encryption {
    enabled = true
  }

  deletion_protection_enabled = true
}

resource "aws_dynamodb_table" "customer_totals" {
  name         = "customer-order-totals"
  billing_mode = "PAY_PER_REQUEST"
  hash_key     = "customer_id"

  attribute {
    name = "customer_id"
    type = "S"
  }

  point_in_time_recovery {
    enabled = true
  }

  server_side_encryption {
    enabled = true
  }

  deletion_protection_enabled = true
}
