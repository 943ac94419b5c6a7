"""Read models rebuilt from the ledger's events. Each owns its tables and SQL."""
