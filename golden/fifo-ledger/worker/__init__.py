"""Ledger worker: applies each account's postings in order, each exactly once.

Guarantees, and where they come from:
- Order per account: the FIFO queue hands out an account's next posting only once the one
  in flight is deleted or its lease lapses; the worker takes one message at a time and
  deletes it only after its commit (consumer.py). In the database, the account row is
  locked for the transaction, so two postings of one account can never interleave.
- Exactly-once effects: one transaction checks whether the posting is already recorded,
  decides applied or rejected against the locked balance, writes the posting row and, if
  applied, the balance (store.py). Resends and redeliveries find the row and change
  nothing.
- One live worker per message: a heartbeat extends the message's visibility while it is
  worked on, and nothing is committed or deleted once the lease may have lapsed
  (lease.py), which is measured on the monotonic clock: a wrong wall clock cannot stretch
  it.
- No valid posting in the DLQ: while the database is down the worker keeps the message it
  holds and retries, and takes no new message until the database answers.
- Poison is released at once, so SQS's redrive policy moves it to the DLQ after
  maxReceiveCount quick receives and its account's later postings go on.
- Nothing hangs and nothing gives up: every call has a timeout, and a refused AWS call
  (outage, AccessDenied, a signature refused for a wrong clock) is retried with capped
  backoff for as long as it takes.
"""
