"""Render worker.

Consumes render jobs from the jobs queue, "renders" each (sleeps
WORK_SECONDS) and stores ``<job_id>.json`` in the results bucket.

Guarantees it aims for (see app.py for how):

* never exits on its own - every AWS error is retried with back-off;
* receives are paced after a refusal (exponential back-off, 0.125 s .. 2 s);
* a message is only completed (result stored / message deleted) while this
  process still provably holds it (local lease, kept alive by heartbeats);
* results are idempotent: deterministic key and body, existence check
  before rendering, conditional (If-None-Match) write;
* SIGTERM: stops receiving, hands every held message back (visibility 0) or
  deletes it if its result is already stored, and exits within ~4.5 s.
"""
