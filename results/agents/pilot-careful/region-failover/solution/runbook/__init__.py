"""Ledger region-loss failover runbook (run as ``python -m runbook``)."""
