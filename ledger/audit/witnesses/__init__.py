"""The witnesses: each cosigns a checkpoint only if it extends the last one it saw, so a
rewritten history needs every witness's collusion; the sealer asks them and raises a refusal
as a fork alarm."""
