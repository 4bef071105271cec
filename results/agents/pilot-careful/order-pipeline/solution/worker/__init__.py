"""Order pipeline worker: consumes order events from SQS and records them in PostgreSQL.

Run as ``python -m worker``. See app.py for the processing protocol.
"""
