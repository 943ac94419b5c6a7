"""Shuffles, cuts, burns and the end of a shoe."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from ledger.commands.base import Command
from ledger.domain.shoe import ShuffleMethod


class ShuffleShoe(Command):
    """A new shoe for the table (Stud Poker and Q Poker: a fresh deck before each round)."""

    command: Literal["shuffle_shoe"] = "shuffle_shoe"
    table: str
    method: ShuffleMethod = ShuffleMethod.HAND
    shuffler_serial: str | None = None
    decks: int | None = Field(default=None, description="default: the table's house setting")
    commitment: str | None = Field(
        default=None, pattern="^[0-9a-f]{64}$",
        description="SHA-256 hex of 'order|secret' when the order is known in advance",
    )


class CutShoe(Command):
    command: Literal["cut_shoe"] = "cut_shoe"
    table: str
    cut_by: str = Field(min_length=1, description="who cut: a player or the dealer")
    cut_card_position: int | None = Field(default=None, ge=1, description="cards before the cut card")


class BurnCards(Command):
    """Cards taken from the shoe and put aside (baccarat shoe start; Fortune 8 per round)."""

    command: Literal["burn_cards"] = "burn_cards"
    table: str
    count: int | None = Field(default=None, ge=1)
    cards: list[str] = Field(default_factory=list, description="the burned cards, where shown")


class CloseShoe(Command):
    """The end of a shoe; with a commitment, the order and the secret are revealed."""

    command: Literal["close_shoe"] = "close_shoe"
    table: str
    revealed_order: list[str] | None = None
    secret: str | None = None


SHOE_COMMANDS = (ShuffleShoe, CutShoe, BurnCards, CloseShoe)
