# The results bucket.
#
# * Default encryption SSE-KMS with the org key. S3 Bucket Keys are left off
#   so every object operation uses the org key directly with the caller's
#   kms:GenerateDataKey / kms:Decrypt, exactly as the roles are granted.
# * Versioning is deliberately not enabled: one result object per job, and
#   a re-written result must not leave extra versions behind.
# * Object ownership is left at the S3 default for new buckets
#   (BucketOwnerEnforced: ACLs disabled).
# * No bucket policy: nobody is admitted through the bucket; both roles get
#   their access from identity policies in this account.
resource "aws_s3_bucket" "results" {
  bucket_prefix = "render-results-"
  force_destroy = true
}

resource "aws_s3_bucket_public_access_block" "results" {
  bucket = aws_s3_bucket.results.id

  block_public_acls       = true
  block_public_policy     = true
  ignore_public_acls      = true
  restrict_public_buckets = true
}

resource "aws_s3_bucket_server_side_encryption_configuration" "results" {
  bucket = aws_s3_bucket.results.id

  rule {
    apply_server_side_encryption_by_default {
      sse_algorithm     = "aws:kms"
      kms_master_key_id = var.kms_key_arn
    }
    bucket_key_enabled = false
  }
}
