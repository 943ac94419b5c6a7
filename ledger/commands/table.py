"""Opening and closing tables; dealers in and out."""

from __future__ import annotations

from typing import Literal

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


TABLE_COMMANDS = (OpenTable, CloseTable, SignInDealer, SignOutDealer)
