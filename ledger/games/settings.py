"""House settings shared by every game: validated, dated and authorised.

A game's own settings subclass `HouseSettings` in that game's module. A setting outside what
the regulation allows raises `SettingOutsideRegulation` with a sentence naming the article;
pydantic's own errors are for malformed input only.
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from ledger.core.errors import SettingOutsideRegulation
from ledger.core.formatting import money
from ledger.games.common import MAX_AMOUNT


class HouseSettings(BaseModel):
    """What the house chose for a table, with the date it takes effect and the DICJ reference."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    effective_from: date
    authorisation: str = Field(min_length=1, description="DICJ authorisation reference")
    min_bet: Decimal = Field(gt=0, le=MAX_AMOUNT, decimal_places=2)
    max_bet: Decimal = Field(gt=0, le=MAX_AMOUNT, decimal_places=2)

    @model_validator(mode="after")
    def _limits_in_order(self) -> HouseSettings:
        if self.min_bet > self.max_bet:
            raise SettingOutsideRegulation(
                f"the table minimum {money(self.min_bet)} is above the table maximum "
                f"{money(self.max_bet)}."
            )
        return self
