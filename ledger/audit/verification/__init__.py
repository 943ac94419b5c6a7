"""`ledger verify`: every check of the whole ledger (hash chains, authorship, cross-stream
agreement, recording times, projections, the seal and the witnesses' quorum against the trust
file), full, incremental or spread over workers, and the verifier's own record of it."""
