"""Adapters to the outside world: PostgreSQL, the embedded server, the event mapper."""
