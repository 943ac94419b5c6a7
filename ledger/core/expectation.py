"""What a set of bets is expected to win, and how far chance alone moves the result.

Each bet contributes its stake times its house edge to the expected (theoretical) win, and its
stake squared times the variance per unit staked to the win's variance. By the central limit
theorem the actual win of many bets lies within `z` standard deviations of the expected win
with the stated confidence; `probability` says how often chance alone would put a result at
least as far from the expected win as the one recorded. The normal approximation is what
regulators' variance reports use; with few bets on long odds it is rough, which is why a flag
states its probability rather than a verdict.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from statistics import NormalDist

from ledger.core.errors import InvalidInput

CENT = Decimal("0.01")
CONFIDENCE = Decimal("0.95")


def z_score(confidence: Decimal) -> Decimal:
    """The half-width of a two-sided band in standard deviations: 1.96 at 95%."""
    if not Decimal(0) < confidence < Decimal(1):
        raise InvalidInput(f"a confidence of {confidence} is not between 0 and 1: give one "
                           "such as 0.95.")
    z = NormalDist().inv_cdf(0.5 + float(confidence) / 2)  # money-safe: a count of deviations
    return Decimal(repr(z)).quantize(Decimal("0.0001"))


@dataclass(frozen=True, slots=True)
class Expectation:
    """The expected win of some bets and its variance (money squared)."""

    expected: Decimal = Decimal(0)
    variance: Decimal = Decimal(0)

    def __add__(self, other: Expectation) -> Expectation:
        return Expectation(self.expected + other.expected, self.variance + other.variance)

    @classmethod
    def of_bets(cls, handle: Decimal, sum_of_squares: Decimal, edge: Decimal,
                variance: Decimal) -> Expectation:
        """Bets of one kind: their handle, the sum of their stakes squared, and the kind's
        edge and variance per unit staked."""
        return cls(handle * edge, sum_of_squares * variance)

    @property
    def deviation(self) -> Decimal:
        return self.variance.sqrt() if self.variance > 0 else Decimal(0)

    def band(self, confidence: Decimal = CONFIDENCE) -> tuple[Decimal, Decimal]:
        """The win expected with this confidence, low to high, to the avo."""
        half = z_score(confidence) * self.deviation
        return ((self.expected - half).quantize(CENT), (self.expected + half).quantize(CENT))

    def probability(self, actual: Decimal) -> float:  # money-safe: a probability
        """How likely chance alone gives a win at least this far from the expected one (two-sided).

        >>> Expectation(Decimal(0), Decimal(100)).probability(Decimal("19.6")) < 0.0501
        True
        """
        if self.variance <= 0:
            return 1.0 if actual == self.expected else 0.0
        distance = abs(actual - self.expected) / self.deviation
        return 2 * (1 - NormalDist().cdf(float(distance)))  # money-safe: a probability

    def outside(self, actual: Decimal, confidence: Decimal = CONFIDENCE) -> bool:
        low, high = self.band(confidence)
        return not low <= actual <= high
