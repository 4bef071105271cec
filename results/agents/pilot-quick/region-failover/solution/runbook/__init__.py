"""Region-loss failover runbook for the ledger database."""
