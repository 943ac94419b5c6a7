"""A bet's house edge and variance per unit staked, as the rules and the table's settings make them.

The edge is the player's expected loss per unit staked (the house's expected win); the variance
is that of the player's result per unit staked, in units squared. Each game computes its bets'
figures in its own package (`<game>/odds.py`, function `bet_odds(settings)`) from the
regulation's rules and the house settings in force: by enumerating every deal where that is
exact, and saying so in `method`; where a figure is estimated, `error` bounds it. They set what
a table's win is expected to be and the band around it; they settle no bet.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

PLACES = Decimal("0.0000001")


def exact(value: Fraction) -> Decimal:
    """A rational figure as a Decimal to seven places (a ten-thousandth of a percent)."""
    return (Decimal(value.numerator) / Decimal(value.denominator)).quantize(PLACES)


@dataclass(frozen=True, slots=True)
class BetOdds:
    """One bet's figures: `spot` is the bet's wire name (`banker`, `ante`, `play`, `8`)."""

    spot: str
    edge: Decimal
    variance: Decimal
    method: str  # how the figures were computed, in words a statistician checks
    error: Decimal = Decimal(0)  # a bound on the edge's error where estimated; 0 when exact

    @property
    def deviation(self) -> Decimal:
        """The standard deviation of a unit bet's result."""
        return self.variance.sqrt().quantize(PLACES)


def from_results(spot: str, results: Mapping[Fraction, Fraction], method: str) -> BetOdds:
    """A bet's exact figures from each result per unit staked and its probability.

    A push is the result 0 and counts as a resolved bet, so the edge is per unit staked.

    >>> from_results("L", {Fraction(1): Fraction(6, 13), Fraction(-1): Fraction(7, 13)}, "").edge
    Decimal('0.0769231')
    """
    if sum(results.values()) != 1:
        raise ValueError(f"the probabilities of {spot}'s results do not add up to 1")
    mean = sum((result * chance for result, chance in results.items()), Fraction(0))
    square = sum((result * result * chance for result, chance in results.items()), Fraction(0))
    return BetOdds(spot, exact(-mean), exact(square - mean * mean), method)
