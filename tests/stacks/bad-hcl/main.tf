resource "aws_sqs_queue" "q" {
  name = "broken"
