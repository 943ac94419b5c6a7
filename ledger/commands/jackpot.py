"""Progressive jackpot pools."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from ledger.commands.base import Command, Settings, Identifier, Money, Text


class CreatePool(Command):
    command: Literal["create_pool"] = "create_pool"
    pool: Identifier
    settings: Settings = Field(
        description="seed, royal_flush, straight_flush, four_of_a_kind, full_house, flush, "
        "contribution_rate, reserve_rate, cap, effective_from"
    )


class LinkTable(Command):
    command: Literal["link_table"] = "link_table"
    pool: Identifier
    table: Identifier


class AdjustPool(Command):
    command: Literal["adjust_pool"] = "adjust_pool"
    pool: Identifier
    amount: Money = Field(description="added to the pool (negative: taken out)")
    reason: Text


POOL_COMMANDS = (CreatePool, LinkTable, AdjustPool)
