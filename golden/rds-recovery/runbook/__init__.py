"""The ledger's recovery runbook: `python -m runbook`, the incident as JSON in INCIDENT."""
