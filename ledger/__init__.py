"""The round ledger: an event-sourced system of record for live casino table games."""
