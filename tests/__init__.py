"""The round ledger's tests. Every process of a run gives the ledger its time (`tests/clock.py`)
before any test module reads it."""

from tests.clock import start

start()
