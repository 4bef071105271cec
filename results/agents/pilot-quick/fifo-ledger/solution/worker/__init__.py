"""FIFO ledger worker."""
