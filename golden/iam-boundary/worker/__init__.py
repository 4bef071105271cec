"""The render worker: consumes render jobs from SQS and writes one result object per job to
S3, as the render team's role. See __main__.py for its configuration."""
