"""A realistic floor, played through the same commands a dealer terminal sends.

Randomness lives here, at the edge, and is recorded: every shuffle records a commitment to the
order the simulator drew, revealed when the shoe closes. The same seed gives the same rounds.
"""
