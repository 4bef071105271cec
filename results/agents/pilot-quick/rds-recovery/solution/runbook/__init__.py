"""Ledger database incident runbook."""
