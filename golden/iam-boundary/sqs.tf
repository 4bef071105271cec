# The ingest team's queue of render jobs, encrypted with the organisation's key.
resource "aws_sqs_queue" "jobs" {
  name = "render-jobs"

  # A worker holds a job this long; it renders in well under a second and, when it
  # cannot store the result, hands the job back after a short delay (worker/consumer.py).
  visibility_timeout_seconds        = 10
  receive_wait_time_seconds         = 2
  message_retention_seconds         = 345600
  kms_master_key_id                 = var.kms_key_arn
  kms_data_key_reuse_period_seconds = 300
}

# Who may use the queue besides what identity policies grant: the render team's workers
# consume (a cross-team grant, owned with the queue), and the platform's jobs rule, and
# no other rule of any account, may deliver.
resource "aws_sqs_queue_policy" "jobs" {
  queue_url = aws_sqs_queue.jobs.id
  policy = jsonencode({
    Version = "2012-10-17"
    Statement = [
      {
        Sid       = "RenderWorkersConsume"
        Effect    = "Allow"
        Principal = { AWS = aws_iam_role.worker.arn }
        Action = [
          "sqs:ReceiveMessage",
          "sqs:DeleteMessage",
          "sqs:ChangeMessageVisibility",
        ]
        Resource = aws_sqs_queue.jobs.arn
      },
      {
        Sid       = "JobsRuleDelivers"
        Effect    = "Allow"
        Principal = { Service = "events.amazonaws.com" }
        Action    = "sqs:SendMessage"
        Resource  = aws_sqs_queue.jobs.arn
        Condition = { ArnEquals = { "aws:SourceArn" = var.jobs_rule_arn } }
      },
      {
        Sid       = "DenyInsecureTransport"
        Effect    = "Deny"
        Principal = "*"
        Action    = "sqs:*"
        Resource  = aws_sqs_queue.jobs.arn
        Condition = { Bool = { "aws:SecureTransport" = "false" } }
      },
    ]
  })
}
