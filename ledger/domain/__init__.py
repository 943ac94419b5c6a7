"""Event-sourced aggregates: each checks its invariants, then records past-tense events."""
