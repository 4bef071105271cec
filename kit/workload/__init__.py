"""The workload: a seeded producer, supervised worker processes, and a DB observer."""
