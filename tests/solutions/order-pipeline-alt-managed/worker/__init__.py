"""Order worker: consumes the orders queue and records each valid order exactly once.

Guarantees, and where they come from:
- Exactly-once effects: one transaction inserts the order (`on conflict do nothing`) and,
  only if that inserted a row, adds its amount to the customer's balance; the message is
  deleted only after the commit. Duplicate sends and redeliveries find the row and change
  nothing (store.py).
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
