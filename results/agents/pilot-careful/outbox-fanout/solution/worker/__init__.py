"""Order worker: SQS orders queue -> PostgreSQL (orders + outbox) -> SNS topic."""
