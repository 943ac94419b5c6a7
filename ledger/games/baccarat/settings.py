"""Baccarat house settings and the shoe (arts. 1, 2, 3, 7, 8, 12, 16, 18, 19)."""

from __future__ import annotations

from decimal import Decimal
from enum import StrEnum
from fractions import Fraction

from pydantic import model_validator

from ledger.core.cards import Card, Rank
from ledger.core.errors import InvalidInput, RuleViolation, SettingOutsideRegulation
from ledger.games.baccarat.coup import (
    BANKER_COMMISSION,
    MAX_BOXES,
    MAX_DECKS,
    MAX_DEMONSTRATION_COUPS,
    MIN_DECKS,
    MIN_SEATS,
    REGULATION,
    _parse,
)
from ledger.games.settings import HouseSettings

# --- house settings and the shoe (arts. 1, 2, 3, 7, 8, 12, 16, 18, 19) --------------------


class Equipment(StrEnum):
    SHOE = "shoe"  # art. 1(2), with one or more cut cards
    AUTOMATIC_SHUFFLER_DEALER = "automatic_shuffler_dealer"  # art. 1(3), 2(3), 7(2)
    SHUFFLER = "shuffler"  # art. 1(4): shuffles only; the cards are then dealt from a shoe


class BurnMethod(StrEnum):
    BY_DECKS = "by_decks"  # art. 2(1): as many cards as decks
    BY_FIRST_CARD_VALUE = "by_first_card_value"  # art. 2(1): by the first card's face value


class LastCoup(StrEnum):
    """Art. 3(1): what the blank card announces."""

    THIS_COUP = "this_coup"  # the coup in which it appears is the last of the shoe
    ONE_MORE = "one_more"  # one more coup is played after it


class TieHandling(StrEnum):
    """Art. 12: what happens to the player and banker bets of a tied coup in the next coup."""

    WITHDRAWN = "withdrawn"  # art. 12(1)
    KEPT = "kept"  # art. 12(2): they stand unchanged
    CHANGED_AMOUNT = "changed_amount"  # art. 12(3)(1): same side, amount up or down
    CHANGED_SIDE = "changed_side"  # art. 12(3)(2): same amount, player <-> banker


class BaccaratSettings(HouseSettings):
    """A baccarat table's house options; those of arts. 2, 3, 7 and 12 need DICJ authorisation
    three working days ahead (art. 19), hence the dated, referenced record."""

    decks: int
    equipment: Equipment = Equipment.SHOE
    burn_method: BurnMethod = BurnMethod.BY_DECKS  # unused with the shuffler-dealer (art. 2(3))
    demonstration_coups: int = 0
    last_coup: LastCoup = LastCoup.THIS_COUP
    shoe_replaced_each_shoe: bool = False  # art. 3(2)
    burn_card_each_coup: bool = False  # art. 8
    tie_handling: TieHandling = TieHandling.WITHDRAWN
    players_handle_cards: bool = False  # art. 16
    commission_rate: Decimal = Decimal("0.05")
    seats: int = MIN_SEATS  # boxes 1 to seats are the seated players' spaces (art. 15)

    @model_validator(mode="after")
    def _within_regulation(self) -> BaccaratSettings:
        check_decks(self.decks)
        if not 0 <= self.demonstration_coups <= MAX_DEMONSTRATION_COUPS:
            raise SettingOutsideRegulation(
                f"{self.demonstration_coups} demonstration coups: art. 2(2) of {REGULATION} "
                f"allows 0 to {MAX_DEMONSTRATION_COUPS} at the start of each shoe."
            )
        if not MIN_SEATS <= self.seats <= MAX_BOXES:
            raise SettingOutsideRegulation(
                f"{self.seats} seats: art. 1(5) of {REGULATION} requires seven or more, and the "
                f"layouts hold {MAX_BOXES} boxes."
            )
        if Fraction(self.commission_rate) != BANKER_COMMISSION:
            raise SettingOutsideRegulation(
                f"a banker commission of {self.commission_rate}: art. 18 of {REGULATION} "
                f"fixes it at 5% (0.05) of the banker's win."
            )
        return self


def check_standing_bet(box: int, seats: int) -> None:
    """Art. 15: a standing player may not bet in the space reserved for the seated players
    (boxes 1 to `seats`); the boxes after them are the standing players'."""
    if box <= seats:
        spaces = (f"standing players bet on boxes {seats + 1} to {MAX_BOXES}"
                  if seats < MAX_BOXES else "this layout has no space for standing players")
        raise RuleViolation(
            f"box {box} is a seated player's space: a standing player may not bet there (art. "
            f"15 of {REGULATION}); {spaces}.")


def check_decks(decks: int) -> None:
    if not MIN_DECKS <= decks <= MAX_DECKS:
        raise SettingOutsideRegulation(
            f"{decks} decks: art. 1(1) of {REGULATION} requires {MIN_DECKS} to {MAX_DECKS} "
            f"decks of 52 cards."
        )


def first_card_burn_value(card: Card) -> int:
    """Art. 2(1) by face value: A counts 1, 2-9 their value, T/J/Q/K count 10."""
    if card.rank == Rank.ACE:
        return 1
    return min(int(card.rank), 10)


def burn_count(method: BurnMethod | str, decks: int, first_card: Card | None = None) -> int:
    """How many cards leave the shoe, burned, before its first coup (art. 2(1)).

    By decks: one card per deck. By first card value: the first card is turned up and burned,
    then as many more as its face value, so the total counts the first card too (a 7 burns 8).

    >>> burn_count("by_first_card_value", 8, Card.parse("KH"))
    11
    """
    check_decks(decks)
    if _parse(BurnMethod, method, "burn method") is BurnMethod.BY_DECKS:
        return decks
    if first_card is None:
        raise InvalidInput("burning by the first card's value needs the first card drawn.")
    return 1 + first_card_burn_value(first_card)


def burn_at_shoe_start(settings: BaccaratSettings, first_card: Card | None = None) -> int:
    """Cards burned before a shoe's first coup: none with the shuffler-dealer (art. 2(3))."""
    if settings.equipment is Equipment.AUTOMATIC_SHUFFLER_DEALER:
        return 0
    return burn_count(settings.burn_method, settings.decks, first_card)


def coups_after_blank_card(option: LastCoup | str) -> int:
    """Art. 3(1): coups still played after the one in which the blank card appears."""
    return 1 if _parse(LastCoup, option, "last-coup option") is LastCoup.ONE_MORE else 0


