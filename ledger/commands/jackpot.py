"""Progressive jackpot pools."""

from __future__ import annotations

import re
from typing import Literal

from pydantic import Field, field_validator

from ledger.commands.base import Command, Identifier, Money, Settings, Text
from ledger.core.errors import InvalidInput
from ledger.domain.grammar import shown

SCIENTIFIC = re.compile(r"[+-]?[0-9.]+[eE][+-]?[0-9]+")


class CreatePool(Command):
    command: Literal["create_pool"] = "create_pool"
    pool: Identifier
    settings: Settings = Field(
        description="seed, royal_flush, straight_flush, four_of_a_kind, full_house, flush, "
        "contribution_rate, reserve_rate, cap, effective_from"
    )

    @field_validator("settings")
    @classmethod
    def _plain_figures(cls, settings: dict[str, object]) -> dict[str, object]:
        """Sums and rates in plain figures, as money is (`--seed 1e3` reads as "1E+3")."""
        for key, value in settings.items():
            if isinstance(value, str) and SCIENTIFIC.fullmatch(value.strip()):
                raise InvalidInput(f"{key} is written in plain figures, such as 1000.00, not "
                                   f"in scientific notation ({shown(value)}).")
        return settings


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
