"""Ledger worker: applies postings from an SQS FIFO queue to PostgreSQL.

Run as ``python -m worker``. Configuration comes from the environment
(see :mod:`worker.settings`).
"""
