output "queue_url" {
  description = "URL of the jobs queue."
  value       = aws_sqs_queue.jobs.url
}

output "bucket_name" {
  description = "Name of the results bucket."
  value       = aws_s3_bucket.results.bucket
}

output "producer_role_arn" {
  description = "Role the ingest service sends jobs as."
  value       = aws_iam_role.producer.arn
}

output "worker_role_arn" {
  description = "Role the render workers run as."
  value       = aws_iam_role.worker.arn
}
