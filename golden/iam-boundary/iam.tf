locals {
  # Only the harness principal may assume either role.
  assume_by_harness = jsonencode({
    Version = "2012-10-17"
    Statement = [{
      Effect    = "Allow"
      Principal = { AWS = var.harness_principal_arn }
      Action    = "sts:AssumeRole"
    }]
  })
}

# The ingest team's producer: submits jobs to its queue and reads the results (the read
# is granted by the results bucket's policy).
resource "aws_iam_role" "producer" {
  name                 = "ingest-producer"
  assume_role_policy   = local.assume_by_harness
  permissions_boundary = var.permissions_boundary_arn
}

resource "aws_iam_role_policy" "producer" {
  name = "submit-jobs"
  role = aws_iam_role.producer.id
  policy = jsonencode({
    Version = "2012-10-17"
    Statement = [
      {
        Sid      = "SubmitJobs"
        Effect   = "Allow"
        Action   = "sqs:SendMessage"
        Resource = aws_sqs_queue.jobs.arn
      },
      {
        # SQS encrypts with the org key as the sender (GenerateDataKey and Decrypt, SQS
        # developer guide); S3 decrypts results as the reader.
        Sid      = "UseOrgKey"
        Effect   = "Allow"
        Action   = ["kms:GenerateDataKey", "kms:Decrypt"]
        Resource = var.kms_key_arn
      },
    ]
  })
}

# The render team's worker: consumes jobs (granted by the queue's policy) and writes the
# results to its bucket.
resource "aws_iam_role" "worker" {
  name                 = "render-worker"
  assume_role_policy   = local.assume_by_harness
  permissions_boundary = var.permissions_boundary_arn
}

resource "aws_iam_role_policy" "worker" {
  name = "render-results"
  role = aws_iam_role.worker.id
  policy = jsonencode({
    Version = "2012-10-17"
    Statement = [
      {
        Sid      = "WriteResults"
        Effect   = "Allow"
        Action   = "s3:PutObject"
        Resource = "${aws_s3_bucket.results.arn}/*"
      },
      {
        # Decrypt jobs as SQS delivers them; S3 encrypts results with a new data key.
        Sid      = "UseOrgKey"
        Effect   = "Allow"
        Action   = ["kms:Decrypt", "kms:GenerateDataKey"]
        Resource = var.kms_key_arn
      },
    ]
  })
}
