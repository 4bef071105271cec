"""Render worker: consumes render jobs from SQS and stores results in S3."""
