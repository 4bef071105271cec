"""Order worker: records each valid order from the orders queue exactly once, and
publishes exactly one event per recorded order to the order-events topic.

Guarantees, and where they come from:
- Exactly-once effects: one transaction inserts the order (`on conflict do nothing`) and,
  only if that inserted a row, its event (a new event_id) in the outbox table; the message
  is deleted only after the commit. Duplicate sends and redeliveries find the row and
  change nothing (store.py).
- Every recorded order's event published, under one event_id: the relay publishes
  committed outbox rows and marks them only once SNS accepted them; a crash or a refused
  publish leaves them to the next round, which publishes the same event again (relay.py).
- One live worker per message: a heartbeat extends the message's visibility while it is
  worked on, and nothing is committed or deleted once the lease may have lapsed
  (lease.py).
- No valid order in the DLQ: while the database is down the worker keeps the message it
  holds and retries, and takes no new message until the database answers (consumer.py).
- Poison is released at once, so SQS's redrive policy moves it to the DLQ after
  maxReceiveCount quick receives.
- Nothing hangs: every network call has a timeout, including a client-side deadline on
  database transactions (store.py).
"""
