"""Baccarat as the ledger asks of it: `GAME`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from ledger.games.baccarat.shoe import SHOE
from ledger.games.base import GameBase, frozen_mapping
from ledger.games.boards import Roads
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

    def roads(self, outcomes: Sequence[Mapping[str, object]]) -> Roads:
        """The bead plate and the big road of the coups' winners (`ledger.games.baccarat.roads`)."""
        from ledger.games.baccarat.roads import bead_plate, big_road

        winners = [str(outcome["winner"]) for outcome in outcomes if outcome.get("winner")]
        return Roads(bead_plate(winners), big_road(winners))

    def simulated_shoe_start(self, sim: Any) -> int:
        """The demonstration coups the table's settings give (art. 2(2)), after the burn."""
        from ledger.games.baccarat.simulation import play_demonstration

        coups = int(sim.spec.settings.get("demonstration_coups", 0))
        for _ in range(coups):
            play_demonstration(sim)
        return coups

    def simulated_settings(self, odd: bool) -> dict[str, object]:
        """Every other table keeps a tie's player and banker bets for the next coup (art.
        12(2)); the others play a demonstration coup at the start of each shoe (art. 2(2))."""
        return {"demonstration_coups": 1} if odd else {"tie_handling": "kept"}


GAME = Baccarat(
    code="baccarat", name="Baccarat", package="ledger.games.baccarat", shoe=SHOE,
    default_settings=frozen_mapping({"decks": 8}),
    pushed_bets_stand=True,
    table_plan=TablePlan(floor_order=0, prefix="BAC", min_bet=Decimal(300),
                         max_bet=Decimal(50000), decks=8, round_seconds=55,
                         cut_card_behind=14,
                         biases=("marked-cards", "informed-bettor", "lucky-streak", "misdealer"),
                         buy_in=4),
)
