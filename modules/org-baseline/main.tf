# The organisation's platform, as it exists before any team's stack: the permissions
# boundary every workload role must carry, the customer managed KMS key teams share, and
# the event rule through which the ingest application submits jobs.

data "aws_caller_identity" "current" {}

# What any workload role may ever do, whatever its own policies grant: the data plane of
# the services workloads use, and never IAM, key administration or resource policy edits.
resource "aws_iam_policy" "workload_boundary" {
  name        = "${var.name_prefix}-workload-boundary"
  path        = "/${var.name_prefix}/"
  description = "Permissions boundary of every workload role."
  policy = jsonencode({
    Version = "2012-10-17"
    Statement = [
      {
        Sid    = "WorkloadDataPlane"
        Effect = "Allow"
        Action = [
          "sqs:SendMessage",
          "sqs:ReceiveMessage",
          "sqs:DeleteMessage",
          "sqs:ChangeMessageVisibility",
          "sqs:GetQueueAttributes",
          "sqs:GetQueueUrl",
          "s3:GetObject",
          "s3:PutObject",
          "s3:ListBucket",
          "s3:GetBucketLocation",
          "kms:Decrypt",
          "kms:Encrypt",
          "kms:GenerateDataKey",
          "kms:DescribeKey",
          "sts:GetCallerIdentity",
        ]
        Resource = "*"
      },
      {
        Sid    = "NoEscalation"
        Effect = "Deny"
        Action = [
          "iam:*",
          "organizations:*",
          "kms:CreateGrant",
          "kms:PutKeyPolicy",
          "kms:ScheduleKeyDeletion",
          "kms:DisableKey",
          "s3:PutBucketPolicy",
          "s3:DeleteBucketPolicy",
          "sqs:SetQueueAttributes",
          "sqs:AddPermission",
        ]
        Resource = "*"
      },
    ]
  })
}

# Key use is granted by IAM policies: the key policy lets the account's IAM policies
# decide (AWS KMS, "Default key policy"). Teams grant their roles what they need.
resource "aws_kms_key" "shared" {
  description             = "Customer managed key shared by the organisation's teams."
  enable_key_rotation     = true
  deletion_window_in_days = 7
  policy = jsonencode({
    Version = "2012-10-17"
    Statement = [
      {
        Sid       = "EnableIamPolicies"
        Effect    = "Allow"
        Principal = { AWS = "arn:aws:iam::${data.aws_caller_identity.current.account_id}:root" }
        Action    = "kms:*"
        Resource  = "*"
      },
      {
        # EventBridge encrypts what it delivers to a queue under this key (EventBridge
        # user guide, "Amazon SQS permissions"), for this account's rules only.
        Sid       = "EventBridgeDeliversEncrypted"
        Effect    = "Allow"
        Principal = { Service = "events.amazonaws.com" }
        Action    = ["kms:GenerateDataKey", "kms:Decrypt"]
        Resource  = "*"
        Condition = {
          StringEquals = { "aws:SourceAccount" = data.aws_caller_identity.current.account_id }
        }
      },
    ]
  })
}

resource "aws_kms_alias" "shared" {
  name          = "alias/${var.name_prefix}-shared"
  target_key_id = aws_kms_key.shared.key_id
}

# The ingest application publishes JobSubmitted events on the default bus; the platform
# team points this rule at a team's queue once the queue lets the rule deliver.
resource "aws_cloudwatch_event_rule" "jobs_submitted" {
  name        = "${var.name_prefix}-jobs-submitted"
  description = "Render jobs submitted by the ingest application."
  event_pattern = jsonencode({
    source        = ["${var.name_prefix}.ingest"]
    "detail-type" = ["JobSubmitted"]
  })
}
