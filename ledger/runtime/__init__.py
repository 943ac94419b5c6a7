"""The composition root: builds the ledger, its database, writer and sealer from the settings."""
