# The jobs queue.
#
# * Encrypted with the org key (SSE-KMS).
# * Retention is the SQS maximum (14 days), comfortably above the 4 days a
#   weekend outage needs.
# * No dead-letter queue on purpose: a redrive policy would move jobs away
#   after N failed receives, and the failure model (denied calls for up to
#   10 s, repeatedly) must not lose or strand any job.
# * The visibility timeout here is only the default; workers pass their own
#   VisibilityTimeout on every receive and extend it while they work.
resource "aws_sqs_queue" "jobs" {
  name_prefix = "render-jobs-"

  message_retention_seconds  = 1209600
  visibility_timeout_seconds = 30
  receive_wait_time_seconds  = 0

  kms_master_key_id                 = var.kms_key_arn
  kms_data_key_reuse_period_seconds = 300
}

locals {
  # arn:<partition>:events:<region>:<account>:rule/[<bus>/]<name>
  jobs_rule_account = element(split(":", var.jobs_rule_arn), 4)
}

# Resource policy: admits exactly one outside sender, EventBridge acting for
# the platform's jobs rule (confused-deputy protection via aws:SourceArn and
# aws:SourceAccount). The producer and worker roles are in this account and get
# their access from their own identity policies, so they are not named here.
data "aws_iam_policy_document" "queue" {
  statement {
    sid       = "JobsRuleMaySend"
    effect    = "Allow"
    actions   = ["sqs:SendMessage"]
    resources = [aws_sqs_queue.jobs.arn]

    principals {
      type        = "Service"
      identifiers = ["events.amazonaws.com"]
    }

    condition {
      test     = "ArnEquals"
      variable = "aws:SourceArn"
      values   = [var.jobs_rule_arn]
    }

    condition {
      test     = "StringEquals"
      variable = "aws:SourceAccount"
      values   = [local.jobs_rule_account]
    }
  }
}

resource "aws_sqs_queue_policy" "jobs" {
  queue_url = aws_sqs_queue.jobs.id
  policy    = data.aws_iam_policy_document.queue.json
}
