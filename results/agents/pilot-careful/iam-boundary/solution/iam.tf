# Both roles: trusted by the harness principal only, capped by the platform's
# workload boundary, granted exactly their team's needs through an inline
# policy (one statement per concern).

data "aws_iam_policy_document" "trust_harness" {
  statement {
    sid     = "HarnessOnly"
    effect  = "Allow"
    actions = ["sts:AssumeRole"]

    principals {
      type        = "AWS"
      identifiers = [var.harness_principal_arn]
    }
  }
}

locals {
  results_objects = "${aws_s3_bucket.results.arn}/*"
}

# ------------------------------------------------------------------ producer

resource "aws_iam_role" "producer" {
  name_prefix           = "ingest-producer-"
  description           = "Ingest team: submits render jobs and reads their results."
  assume_role_policy    = data.aws_iam_policy_document.trust_harness.json
  permissions_boundary  = var.permissions_boundary_arn
  force_detach_policies = true
}

data "aws_iam_policy_document" "producer" {
  statement {
    sid    = "SendJobs"
    effect = "Allow"
    actions = [
      "sqs:SendMessage",
      "sqs:GetQueueAttributes",
      "sqs:GetQueueUrl",
    ]
    resources = [aws_sqs_queue.jobs.arn]
  }

  statement {
    sid       = "ReadResults"
    effect    = "Allow"
    actions   = ["s3:GetObject"]
    resources = [local.results_objects]
  }

  # Also what turns a poll for a not-yet-stored result into 404 NoSuchKey
  # instead of 403 AccessDenied.
  statement {
    sid       = "ListResults"
    effect    = "Allow"
    actions   = ["s3:ListBucket"]
    resources = [aws_s3_bucket.results.arn]
  }

  # SQS SendMessage needs GenerateDataKey + Decrypt; S3 GetObject needs Decrypt.
  statement {
    sid       = "UseOrgKey"
    effect    = "Allow"
    actions   = ["kms:GenerateDataKey", "kms:Decrypt"]
    resources = [var.kms_key_arn]
  }

  statement {
    sid       = "WhoAmI"
    effect    = "Allow"
    actions   = ["sts:GetCallerIdentity"]
    resources = ["*"]
  }

  # No other key, ever (this also covers AWS managed keys such as aws/s3,
  # whose key policies admit every principal of the account).
  statement {
    sid           = "NoOtherKeys"
    effect        = "Deny"
    actions       = ["kms:*"]
    not_resources = [var.kms_key_arn]
  }
}

resource "aws_iam_role_policy" "producer" {
  name   = "ingest-producer"
  role   = aws_iam_role.producer.id
  policy = data.aws_iam_policy_document.producer.json
}

# ------------------------------------------------------------------ worker

resource "aws_iam_role" "worker" {
  name_prefix           = "render-worker-"
  description           = "Render team: consumes render jobs and stores their results."
  assume_role_policy    = data.aws_iam_policy_document.trust_harness.json
  permissions_boundary  = var.permissions_boundary_arn
  force_detach_policies = true
}

data "aws_iam_policy_document" "worker" {
  # sqs:DeleteMessage / sqs:ChangeMessageVisibility also authorise their
  # *Batch variants; the worker only uses the single-message calls.
  statement {
    sid    = "ConsumeJobs"
    effect = "Allow"
    actions = [
      "sqs:ReceiveMessage",
      "sqs:DeleteMessage",
      "sqs:ChangeMessageVisibility",
      "sqs:GetQueueAttributes",
      "sqs:GetQueueUrl",
    ]
    resources = [aws_sqs_queue.jobs.arn]
  }

  # Write results and read them back (HEAD/GET to skip already-done jobs).
  statement {
    sid       = "WriteResults"
    effect    = "Allow"
    actions   = ["s3:PutObject", "s3:GetObject"]
    resources = [local.results_objects]
  }

  statement {
    sid       = "ListResults"
    effect    = "Allow"
    actions   = ["s3:ListBucket"]
    resources = [aws_s3_bucket.results.arn]
  }

  # SQS ReceiveMessage needs Decrypt; S3 PutObject needs GenerateDataKey,
  # S3 GetObject needs Decrypt.
  statement {
    sid       = "UseOrgKey"
    effect    = "Allow"
    actions   = ["kms:GenerateDataKey", "kms:Decrypt"]
    resources = [var.kms_key_arn]
  }

  statement {
    sid       = "WhoAmI"
    effect    = "Allow"
    actions   = ["sts:GetCallerIdentity"]
    resources = ["*"]
  }

  statement {
    sid           = "NoOtherKeys"
    effect        = "Deny"
    actions       = ["kms:*"]
    not_resources = [var.kms_key_arn]
  }

  # Results may only be stored encrypted under KMS (the bucket default, the
  # org key); refuse explicit requests for another scheme such as SSE-S3.
  # Requests without the header (what the worker sends) are unaffected.
  statement {
    sid       = "NoOtherEncryption"
    effect    = "Deny"
    actions   = ["s3:PutObject"]
    resources = [local.results_objects]

    condition {
      test     = "Null"
      variable = "s3:x-amz-server-side-encryption"
      values   = ["false"]
    }

    condition {
      test     = "StringNotEquals"
      variable = "s3:x-amz-server-side-encryption"
      values   = ["aws:kms"]
    }
  }
}

resource "aws_iam_role_policy" "worker" {
  name   = "render-worker"
  role   = aws_iam_role.worker.id
  policy = data.aws_iam_policy_document.worker.json
}
