"""A bet's house edge and variance per unit staked, as the rules and the table's settings make them.

The edge is the player's expected loss per unit staked (the house's expected win); the variance
is that of the player's result per unit staked, in units squared. Each game computes its bets'
figures in its own package (`<game>/odds.py`, function `bet_odds(settings)`) from the
regulation's rules and the house settings in force: by enumerating every deal where that is
exact, and saying so in `method`; where a figure is estimated, `error` bounds it. They set what
a table's win is expected to be and the band around it; they settle no bet.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import NamedTuple, TypeVar

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


# --- A round's bets together ---------------------------------------------------------------
#
# The bets of one round are not independent: a coup's banker and player bets are settled on the
# same cards, players sharing a box share its cards, a box's bonus and play bets the box's hand,
# and every box meets the same dealer. A round's result is one random variable: the sum over
# its bets of stake x that bet's result per unit staked. Its variance is
# sum over pairs of bets of stake x stake x the covariance of their unit results, and that
# covariance depends only on the two spots and whether the bets are on one box or on two.

Pair = tuple[str, str]


@dataclass(frozen=True, slots=True)
class Stake:
    """One bet of a round: its box (a Fortune 8 space), its spot's wire name and its stake."""

    box: int
    spot: str
    amount: Decimal


class Moments(NamedTuple):
    """The house's win on a round: its expectation (money) and its variance (money squared).
    A player's result is its negative, with the same variance."""

    mean: Decimal
    variance: Decimal


def _symmetric(entries: Mapping[Pair, Fraction]) -> dict[Pair, Fraction]:
    full = dict(entries)
    full.update({(b, a): value for (a, b), value in entries.items()})
    return full


@dataclass(frozen=True)
class RoundOdds:
    """How a game's bets move together in one round, per unit staked.

    `edge` is each spot's house edge; `within` the covariance of two spots' unit results on
    one box (a spot with itself: its variance), `across` on two different boxes of the same
    round. A pair of spots not named has covariance 0: independent, or never both in a round.
    `error` bounds the error of the `across` entries where they are estimated, 0 where exact.
    """

    edge: Mapping[str, Fraction]
    within: Mapping[Pair, Fraction]
    across: Mapping[Pair, Fraction]
    method: str
    error: Fraction = Fraction(0)

    def __post_init__(self) -> None:
        object.__setattr__(self, "within", _symmetric(self.within))
        object.__setattr__(self, "across", _symmetric(self.across))

    def covariance(self, a: str, b: str, *, same_box: bool) -> Fraction:
        return (self.within if same_box else self.across).get((a, b), Fraction(0))

    def moments(self, bets: Iterable[Stake]) -> Moments:
        """The exact mean and variance of the house's win on a round holding these bets.

        >>> odds = RoundOdds({"x": Fraction(0)}, {("x", "x"): Fraction(1)},
        ...                  {("x", "x"): Fraction(1)}, "one coin for every box")
        >>> odds.moments([Stake(1, "x", Decimal(100)), Stake(2, "x", Decimal(100))])
        Moments(mean=Decimal('0.0000'), variance=Decimal('40000.0000'))
        """
        bets = list(bets)
        unknown = sorted({bet.spot for bet in bets} - set(self.edge))
        if unknown:
            spots = "spot" if len(unknown) == 1 else "spots"
            raise ValueError(f"no odds for the {spots} {', '.join(unknown)} of this round")
        mean = sum((Fraction(bet.amount) * self.edge[bet.spot] for bet in bets), Fraction(0))
        variance = Fraction(0)
        for one in bets:
            for other in bets:
                variance += (Fraction(one.amount) * Fraction(other.amount)
                             * self.covariance(one.spot, other.spot, same_box=one.box == other.box))
        return Moments(_money(mean), _money(variance))

    def variance_of_sums(self, within: Mapping[Pair, Decimal],
                         whole: Mapping[Pair, Decimal]) -> Decimal:
        """The variance of many rounds' win from sums over their rounds: `within[a, b]` of
        stake on a x stake on b over each box's bets, `whole[a, b]` of the round's total
        stake on a x its total on b (every ordered pair of spots)."""
        total = Fraction(0)
        for pair, together in whole.items():
            one_box = Fraction(within.get(pair, Decimal(0)))
            total += one_box * self.within.get(pair, Fraction(0))
            total += (Fraction(together) - one_box) * self.across.get(pair, Fraction(0))
        return _money(total)


def _money(value: Fraction) -> Decimal:
    return (Decimal(value.numerator) / Decimal(value.denominator)).quantize(Decimal("0.0001"))


Outcome = TypeVar("Outcome", bound=Hashable)


def covariances(outcomes: Mapping[Outcome, Fraction],
                results: Callable[[Outcome], Mapping[str, Fraction]]
                ) -> tuple[dict[str, Fraction], dict[Pair, Fraction]]:
    """Each spot's mean unit result and every pair's covariance, from a distribution of
    outcomes and each spot's unit result under each outcome."""
    if sum(outcomes.values()) != 1:
        raise ValueError("the outcomes' probabilities do not add up to 1")
    spots = sorted({spot for outcome in outcomes for spot in results(outcome)})
    mean = {spot: Fraction(0) for spot in spots}
    product = {(a, b): Fraction(0) for a in spots for b in spots}
    for outcome, chance in outcomes.items():
        paid = results(outcome)
        for a in spots:
            mean[a] += chance * paid.get(a, Fraction(0))
            for b in spots:
                product[a, b] += chance * paid.get(a, Fraction(0)) * paid.get(b, Fraction(0))
    return mean, {(a, b): product[a, b] - mean[a] * mean[b] for a in spots for b in spots}
