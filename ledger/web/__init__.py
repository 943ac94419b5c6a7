"""The ledger's network face (`ledger serve`): the terminal API under /v1 and, built on it, the
pages. Thin: every decision is the ledger's (the door, the handlers, the projections)."""
