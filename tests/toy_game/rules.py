"""High Card's rules: pure, cards in, results out."""

from __future__ import annotations

from decimal import Decimal

from ledger.core.cards import Card
from ledger.games.common import BetResult, Outcome
from ledger.games.settings import HouseSettings

SPOT = "high"


class HighCardSettings(HouseSettings):
    """Nothing for the house to choose beyond the limits."""


def wins(box: Card, dealer: Card) -> bool:
    """The box's card outranks the dealer's; a tie of ranks is the house's.

    >>> from ledger.core.cards import parse_card
    >>> wins(parse_card("KS"), parse_card("QD")), wins(parse_card("QS"), parse_card("QD"))
    (True, False)
    """
    return box.rank > dealer.rank


def settle(stake: Decimal, box: Card, dealer: Card, box_number: int,
           player: str | None = None) -> BetResult:
    if wins(box, dealer):
        return BetResult(box_number, SPOT, stake, Outcome.WON, returned=stake, payout=stake,
                         player=player)
    return BetResult(box_number, SPOT, stake, Outcome.LOST, player=player)
