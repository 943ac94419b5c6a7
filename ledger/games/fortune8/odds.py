"""Fortune 8's house edges and variances per unit staked, exact (art. 6-8).

A box is settled by one card, and the box it wins (`winning_box`) depends on the card's rank.
Every deck holds each rank four times, so a shoe of any number of decks holds each rank in the
same proportion as one deck: the chance that a card is a given rank is the deck's, whatever
the deck count. And the card a space receives is equally likely to be any card of a shuffled
shoe, whatever its place in the shoe (after the burn, after other spaces' cards, deep in the
shoe): the shuffle makes every place alike for a bettor who has not seen the cards before it.
The figures below hold for every bet averaged over the shoe; a bettor who counts the cards
already seen may find a round with other odds, as in any game dealt from a shoe.

>>> from ledger.games.fortune8.rules import Fortune8Settings
>>> settings = Fortune8Settings(decks=6, effective_from="2026-01-01", authorisation="test",
...                             min_bet=100, max_bet=5000)
>>> [(odds.spot, str(odds.edge), str(odds.variance)) for odds in bet_odds(settings)]
[('L', '0.0769231', '0.9940828'), ('8', '0.0769231', '10.2248521'), ('H', '0.0769231', '0.9940828')]
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from fractions import Fraction
from functools import cache, lru_cache

from ledger.core.cards import DECK
from ledger.games.fortune8.rules import ODDS, Box, Fortune8Settings, winning_box
from ledger.games.odds import BetOdds, Moments, RoundOdds, Stake, covariances, from_results


@lru_cache(maxsize=1)
def box_chances() -> dict[Box, Fraction]:
    """The chance that a space's card wins each box: counted over the 52 cards of a deck."""
    wins = Counter(Box(winning_box(card)) for card in DECK)
    return {box: Fraction(wins[box], len(DECK)) for box in Box}


def _method(box: Box, decks: int) -> str:
    wins = box_chances()[box] * len(DECK)
    return (
        f"exact: one card decides the box; {wins} of 52 cards win it, paid {ODDS[box]}:1, the "
        f"rest lose. The same in a {decks}-deck shoe (each rank is 4 of every 52 cards) and at "
        "any place in the shoe (a shuffled shoe's places are alike)"
    )


@cache
def _bet_odds(decks: int) -> tuple[BetOdds, ...]:
    chances = box_chances()
    return tuple(
        from_results(
            box.value, {ODDS[box]: chances[box], Fraction(-1): 1 - chances[box]},
            _method(box, decks),
        )
        for box in Box
    )


def bet_odds(settings: Fortune8Settings) -> tuple[BetOdds, ...]:
    """The L, 8 and H boxes' edge and variance per unit staked under `settings`."""
    return _bet_odds(settings.decks)


# --- a round's bets together ------------------------------------------------------------------


def _unit_results(winner: Box) -> dict[str, Fraction]:
    return {box.value: ODDS[box] if box is winner else Fraction(-1) for box in Box}


@cache
def _round_odds(decks: int) -> RoundOdds:
    """One space's card settles its three boxes (and every player's bet on them) together; two
    spaces take two different cards of the shoe, drawn without replacement."""
    chances = box_chances()
    means, within = covariances(chances, _unit_results)
    cards = 52 * decks
    held = {box: chances[box] * cards for box in Box}  # the shoe's cards winning each box
    two = {(a, b): held[a] * (held[b] - (a is b)) / (cards * (cards - 1)) for a in Box for b in Box}
    across = {
        (x.value, y.value): sum(
            (chance * _unit_results(a)[x.value] * _unit_results(b)[y.value]
             for (a, b), chance in two.items()), Fraction(0)) - means[x.value] * means[y.value]
        for x in Box for y in Box
    }
    return RoundOdds(
        {spot: -mean for spot, mean in means.items()}, within, across,
        f"exact: a space's card settles its L, 8 and H boxes together; two spaces' cards are "
        f"two different cards of a shuffled {decks}-deck shoe, drawn without replacement")


def round_odds(settings: Fortune8Settings) -> RoundOdds:
    """How a round's bets move together under `settings` (a bet's box is its space)."""
    return _round_odds(settings.decks)


def round_moments(settings: Fortune8Settings, bets: Iterable[Stake]) -> Moments:
    """The exact mean and variance of the house's win on one round holding `bets`, each bet's
    `box` its space.

    >>> from decimal import Decimal
    >>> from ledger.games.fortune8.rules import Fortune8Settings
    >>> settings = Fortune8Settings(decks=6, effective_from="2026-01-01", authorisation="test",
    ...                             min_bet=100, max_bet=5000)
    >>> round_moments(settings, [Stake(1, "L", Decimal(100)), Stake(1, "H", Decimal(100))])
    Moments(mean=Decimal('15.3846'), variance=Decimal('2840.2367'))
    """
    return round_odds(settings).moments(bets)
