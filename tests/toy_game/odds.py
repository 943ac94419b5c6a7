"""High Card's figures, exact: every ordered draw of the dealer's card and two boxes' cards
from one deck, by rank."""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction

from ledger.games.odds import BetOdds, Moments, RoundOdds, Stake, covariances, from_results
from ledger.games.settings import HouseSettings
from tests.toy_game.rules import SPOT

RANKS = range(13)
METHOD = "exact: every rank of the dealer's card and of two boxes' cards from one deck"


def _draws() -> dict[tuple[int, int, int], Fraction]:
    """(dealer, box a, box b) ranks and their chance, dealt without replacement."""
    chances: dict[tuple[int, int, int], Fraction] = {}
    for dealer in RANKS:
        for a in RANKS:
            for b in RANKS:
                left_a = 4 - (a == dealer)
                left_b = 4 - (b == dealer) - (b == a)
                chances[dealer, a, b] = Fraction(4, 52) * Fraction(left_a, 51) * Fraction(left_b, 50)
    return chances


def _unit(box: int, dealer: int) -> Fraction:
    return Fraction(1) if box > dealer else Fraction(-1)


def bet_odds(settings: HouseSettings) -> tuple[BetOdds, ...]:
    results: dict[Fraction, Fraction] = {}
    for (dealer, a, _), chance in _draws().items():
        results[_unit(a, dealer)] = results.get(_unit(a, dealer), Fraction(0)) + chance
    return (from_results(SPOT, results, METHOD),)


def round_odds(settings: HouseSettings) -> RoundOdds:
    def paid(draw: tuple[int, int, int]) -> dict[str, Fraction]:
        return {"a": _unit(draw[1], draw[0]), "b": _unit(draw[2], draw[0])}

    mean, covariance = covariances(_draws(), paid)
    return RoundOdds(edge={SPOT: -mean["a"]}, within={(SPOT, SPOT): covariance["a", "a"]},
                     across={(SPOT, SPOT): covariance["a", "b"]}, method=METHOD)


def round_moments(settings: HouseSettings, bets: Iterable[Stake]) -> Moments:
    return round_odds(settings).moments(bets)
