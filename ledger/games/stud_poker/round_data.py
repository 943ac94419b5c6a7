"""The covariance of two Stud Poker boxes' unit results in one round, estimated.

Two boxes of a round meet the same dealer hand (and take their cards from one deck), so their
results move together. No exact enumeration of two boxes and a dealer hand fits in reasonable
time; these figures are the sample covariances of `scripts/round-odds` over many seeded deals,
each box played as `odds.raises` says, the royal flush at 100:1, and `ERROR` bounds each to about four standard
errors. Regenerate them with `scripts/round-odds --write`.
"""

from fractions import Fraction

ACROSS: dict[tuple[str, str], Fraction] = {
    ("ante", "ante"): Fraction("0.559726"),
}
ERROR = Fraction("0.0165")
METHOD = "estimated: the sample covariance over 250,000 seeded deals (seed 1) of seven boxes each, within +/-0.0165 (four standard errors)"
