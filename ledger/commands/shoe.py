"""Shuffles, cuts, burns and the end of a shoe."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from ledger.commands.base import Command, Identifier, Text, Word
from ledger.domain.shoe import ShuffleMethod


class ShuffleShoe(Command):
    """A new shoe for the table (Stud Poker and Q Poker: a fresh deck before each round)."""

    command: Literal["shuffle_shoe"] = "shuffle_shoe"
    table: Identifier
    method: ShuffleMethod = ShuffleMethod.HAND
    shuffler_serial: Identifier | None = None
    decks: int | None = Field(default=None, ge=1, le=8, description="default: the table's house setting")
    commitment: str | None = Field(
        default=None, pattern="^[0-9a-f]{64}$",
        description="SHA-256 hex of 'order|secret' when the order is known in advance",
    )


class CutShoe(Command):
    command: Literal["cut_shoe"] = "cut_shoe"
    table: Identifier
    cut_by: Text = Field(description="who cut: a player or the dealer")
    cut_card_position: int | None = Field(default=None, ge=1, le=10_000, description="cards before the cut card")


class BurnCards(Command):
    """Cards taken from the shoe and put aside (baccarat shoe start; Fortune 8 per round)."""

    command: Literal["burn_cards"] = "burn_cards"
    table: Identifier
    count: int | None = Field(default=None, ge=1, le=416)
    cards: list[Word] = Field(default_factory=list, max_length=416, description="the burned cards, where shown")


class CloseShoe(Command):
    """The end of a shoe; with a commitment, the order and the secret are revealed."""

    command: Literal["close_shoe"] = "close_shoe"
    table: Identifier
    revealed_order: list[Word] | None = Field(default=None, max_length=416)
    secret: Text | None = None


SHOE_COMMANDS = (ShuffleShoe, CutShoe, BurnCards, CloseShoe)
