"""Game protection: signals that play was not fair, each with its chance under fair play.

A player winning more than the exact odds of their bets allow, stakes that follow the value of
the coming coups, a dealer's irregularities against the floor's, voids that returned bets the
cards had already decided, jackpot hits against their odds. `chance.py` holds the tests,
`coups.py` reads a round's events into what they need, `signals.py` runs them over a period
and corrects for how many were run, `reading.py` reads a period's rounds from the stored
events, `report.py` is the report and the floor's alerts.
"""
