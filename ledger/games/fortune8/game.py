"""Fortune 8 as the ledger asks of it: `GAME`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import TYPE_CHECKING

from ledger.games.base import GameBase, frozen_mapping
from ledger.games.protocol import HandValue, NamedCards, TablePlan
from ledger.games.shoe import ShoePolicy

if TYPE_CHECKING:
    from ledger.core.cards import Card

CARDS_BEHIND_CUT = 12  # DICJ 71/2009 art. 2(1): the cut card goes before the last twelve cards


@dataclass(frozen=True)
class Fortune8(GameBase):
    def name_cards(self, cards: Sequence[Card]) -> NamedCards:
        from ledger.games.fortune8.naming import name_cards

        return name_cards(cards)

    def hand_value(self, target: str, cards: tuple[Card, ...]) -> HandValue:
        from ledger.games.fortune8.naming import hand_value

        return hand_value(target, cards)


GAME = Fortune8(
    code="fortune-8", name="Fortune 8", package="ledger.games.fortune8",
    shoe=ShoePolicy(
        cut_card=True, cards_behind_cut=CARDS_BEHIND_CUT,
        burn_refusal=("Fortune 8 burns the first card of each round, after the deal is "
                      "announced: deal it to 'burn' in the round (art. 4(6))."),
    ),
    default_settings=frozen_mapping({"decks": 6}),
    bet_place="space {} box {}",  # art. 4(2): a bet is on a space's box
    table_plan=TablePlan(floor_order=3, prefix="F8", min_bet=Decimal(100),
                         max_bet=Decimal(5000), decks=6, round_seconds=50,
                         cut_card_behind=CARDS_BEHIND_CUT, biases=("marked-cards",),
                         buy_in=6),
)
