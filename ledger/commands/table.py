"""Opening and closing tables; dealers in and out."""

from __future__ import annotations

from datetime import date
from typing import Literal

from pydantic import Field

from ledger.commands.base import Command, Identifier, Money, Settings, Text, Word


class OpenTable(Command):
    command: Literal["open_table"] = "open_table"
    table: Identifier
    game: Word
    rule_set: Word | None = Field(default=None, description="e.g. stud-poker/2004; default latest")
    min_bet: Money
    max_bet: Money
    pit: Identifier = "MAIN"
    settings: Settings = Field(
        default_factory=dict, description="house settings of the game (decks, royal_odds, ...)"
    )
    authorisation: Text | None = Field(default=None,
                                       description="DICJ authorisation reference")


class ChangeTableSettings(Command):
    """New house settings from a date (a supervisor, with the DICJ authorisation)."""

    command: Literal["change_table_settings"] = "change_table_settings"
    table: Identifier
    settings: Settings
    effective_from: date
    authorisation: Text


class CloseTable(Command):
    command: Literal["close_table"] = "close_table"
    table: Identifier


class SignInDealer(Command):
    command: Literal["sign_in_dealer"] = "sign_in_dealer"
    table: Identifier
    dealer_id: Identifier


class SignOutDealer(Command):
    command: Literal["sign_out_dealer"] = "sign_out_dealer"
    table: Identifier
    dealer_id: Identifier


TABLE_COMMANDS = (OpenTable, CloseTable, SignInDealer, SignOutDealer, ChangeTableSettings)
