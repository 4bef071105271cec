"""Order pipeline worker: SQS -> PostgreSQL."""
