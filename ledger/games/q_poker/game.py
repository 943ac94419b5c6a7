"""Q Poker as the ledger asks of it: `GAME`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import TYPE_CHECKING

from ledger.games.base import GameBase
from ledger.games.protocol import HandValue, NamedCards, TablePlan
from ledger.games.shoe import ShoePolicy

if TYPE_CHECKING:
    from ledger.core.cards import Card


@dataclass(frozen=True)
class QPoker(GameBase):
    def name_cards(self, cards: Sequence[Card]) -> NamedCards:
        from ledger.games.q_poker.naming import name_cards

        return name_cards(cards)

    def hand_value(self, target: str, cards: tuple[Card, ...]) -> HandValue:
        from ledger.games.q_poker.naming import hand_value

        return hand_value(target, cards)


GAME = QPoker(
    code="q-poker", name="Q Poker", package="ledger.games.q_poker",
    shoe=ShoePolicy(single_deck=True),
    table_plan=TablePlan(floor_order=2, prefix="QP", min_bet=Decimal(100),
                         max_bet=Decimal(10000), decks=1, round_seconds=75,
                         shuffler_on_odd_tables=True, fresh_shoe_each_round=True,
                         buy_in=9, biases=("misdealer",)),
)
