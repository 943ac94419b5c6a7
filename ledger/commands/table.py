"""Opening and closing tables; dealers in and out."""

from __future__ import annotations

from datetime import date
from typing import Any, Literal

from pydantic import Field

from ledger.commands.base import Command, Money


class OpenTable(Command):
    command: Literal["open_table"] = "open_table"
    table: str
    game: str
    rule_set: str | None = Field(default=None, description="e.g. stud-poker/2004; default latest")
    min_bet: Money
    max_bet: Money
    pit: str = "main"
    settings: dict[str, Any] = Field(
        default_factory=dict, description="house settings of the game (decks, royal_odds, ...)"
    )
    authorisation: str | None = Field(default=None, description="DICJ authorisation reference")


class ChangeTableSettings(Command):
    """New house settings from a date (a supervisor, with the DICJ authorisation)."""

    command: Literal["change_table_settings"] = "change_table_settings"
    table: str
    settings: dict[str, Any]
    effective_from: date
    authorisation: str = Field(min_length=1)


class CloseTable(Command):
    command: Literal["close_table"] = "close_table"
    table: str


class SignInDealer(Command):
    command: Literal["sign_in_dealer"] = "sign_in_dealer"
    table: str
    dealer_id: str = Field(min_length=1)


class SignOutDealer(Command):
    command: Literal["sign_out_dealer"] = "sign_out_dealer"
    table: str
    dealer_id: str = Field(min_length=1)


TABLE_COMMANDS = (OpenTable, CloseTable, SignInDealer, SignOutDealer, ChangeTableSettings)
