"""fulfilment-worker: records order events from the order-fulfilment queue in PostgreSQL."""
