"""Progressive jackpot pools."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from ledger.commands.base import Command, Money


class CreatePool(Command):
    command: Literal["create_pool"] = "create_pool"
    pool: str = Field(min_length=1, max_length=64)
    settings: dict[str, Any] = Field(
        description="seed, royal_flush, straight_flush, four_of_a_kind, full_house, flush, "
        "contribution_rate, reserve_rate, cap, effective_from"
    )


class LinkTable(Command):
    command: Literal["link_table"] = "link_table"
    pool: str
    table: str


class AdjustPool(Command):
    command: Literal["adjust_pool"] = "adjust_pool"
    pool: str
    amount: Money = Field(description="added to the pool (negative: taken out)")
    reason: str = Field(min_length=1)


POOL_COMMANDS = (CreatePool, LinkTable, AdjustPool)
