"""High Card as the ledger asks of it: `GAME`, with nothing but data and its hands' names."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from ledger.core.cards import Card
from ledger.games.base import GameBase
from ledger.games.protocol import HandValue, NamedCards, TablePlan
from ledger.games.shoe import ShoePolicy


@dataclass(frozen=True)
class HighCard(GameBase):
    def name_cards(self, cards: Sequence[Card]) -> NamedCards:
        return NamedCards({"highest": str(max(cards, key=lambda card: card.rank))},
                          f"{max(cards, key=lambda card: card.rank)} is the highest")

    def hand_value(self, target: str, cards: tuple[Card, ...]) -> HandValue:
        return HandValue(str(cards[0]), f"{cards[0]}", None) if cards else HandValue(None, None, None)


GAME = HighCard(
    code="high-card", name="High Card", package="tests.toy_game",
    shoe=ShoePolicy(single_deck=True),
    table_plan=TablePlan(floor_order=9, prefix="HC", min_bet=Decimal(100),
                         max_bet=Decimal(2000), decks=1, round_seconds=20,
                         fresh_shoe_each_round=True),
)
