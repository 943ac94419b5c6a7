"""Stud Poker as the ledger asks of it: `GAME`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from ledger.games.base import GameBase, frozen_mapping
from ledger.games.protocol import HandValue, NamedCards, TablePlan
from ledger.games.shoe import ShoePolicy

if TYPE_CHECKING:
    from ledger.core.cards import Card


@dataclass(frozen=True)
class StudPoker(GameBase):
    def name_cards(self, cards: Sequence[Card]) -> NamedCards:
        from ledger.games.stud_poker.naming import name_cards

        return name_cards(cards)

    def hand_value(self, target: str, cards: tuple[Card, ...]) -> HandValue:
        from ledger.games.stud_poker.naming import hand_value

        return hand_value(target, cards)

    def dealer_summary(self, cards: Sequence[str]) -> str:
        from ledger.games.stud_poker.naming import dealer_summary

        return dealer_summary(cards)

    def describe_boxes(self, bets: Sequence[Mapping[str, Any]]) -> str:
        from ledger.games.stud_poker.naming import describe_boxes

        return describe_boxes(bets)

    def prepare(self) -> None:
        """The hand values' rank patterns, made on the first hand valued (a seventh of a
        second)."""
        from ledger.games.stud_poker.hands import prepare

        prepare()


GAME = StudPoker(
    code="stud-poker", name="Stud Poker", package="ledger.games.stud_poker",
    shoe=ShoePolicy(single_deck=True),
    default_settings=frozen_mapping({"max_payout": "500000.00"}),
    takes_jackpot_bets=True, describes_boxes=True,
    void_carries_jackpot=True,  # art. 11: a void round carries its jackpot bets
    table_plan=TablePlan(floor_order=1, prefix="SP", min_bet=Decimal(100),
                         max_bet=Decimal(10000), decks=1, round_seconds=90,
                         shuffler_on_odd_tables=True, fresh_shoe_each_round=True,
                         buy_in=12, biases=("misdealer",)),
)
