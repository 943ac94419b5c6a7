"""Baccarat as the ledger asks of it: `GAME`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import TYPE_CHECKING

from ledger.games.baccarat.shoe import SHOE
from ledger.games.base import GameBase, frozen_mapping
from ledger.games.protocol import HandValue, NamedCards, TablePlan

if TYPE_CHECKING:
    from ledger.core.cards import Card


@dataclass(frozen=True)
class Baccarat(GameBase):
    def name_cards(self, cards: Sequence[Card]) -> NamedCards:
        from ledger.games.baccarat.naming import name_cards

        return name_cards(cards)

    def hand_value(self, target: str, cards: tuple[Card, ...]) -> HandValue:
        from ledger.games.baccarat.naming import hand_value

        return hand_value(target, cards)

    def simulated_settings(self, odd: bool) -> dict[str, object]:
        """Every other table keeps a tie's player and banker bets for the next coup (art.
        12(2)); the others play a demonstration coup at the start of each shoe (art. 2(2))."""
        return {"demonstration_coups": 1} if odd else {"tie_handling": "kept"}


GAME = Baccarat(
    code="baccarat", name="Baccarat", package="ledger.games.baccarat", shoe=SHOE,
    default_settings=frozen_mapping({"decks": 8}),
    pushed_bets_stand=True, has_roads=True,
    table_plan=TablePlan(floor_order=0, prefix="BAC", min_bet=Decimal(300),
                         max_bet=Decimal(50000), decks=8, round_seconds=55,
                         cut_card_behind=14,
                         biases=("marked-cards", "informed-bettor", "lucky-streak", "misdealer"),
                         buy_in=4),
)
