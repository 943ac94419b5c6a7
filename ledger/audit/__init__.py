"""Audit: what lets anyone check the ledger, from the events alone or from outside it."""
