"""The ledger's Region failover runbook."""
