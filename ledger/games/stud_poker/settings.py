"""Stud Poker house settings: the rule version, the royal flush's odds, the cap (arts. 9, 13)."""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from enum import StrEnum

from pydantic import Field, model_validator

from ledger.core.errors import SettingOutsideRegulation
from ledger.games.common import MAX_AMOUNT
from ledger.games.settings import HouseSettings
from ledger.games.stud_poker.hands import (
    HandCategory,
)


class RuleVersion(StrEnum):
    V2003 = "2003"  # DICJ 69/2003
    V2004 = "2004"  # DICJ 61/2004


class StudPokerSettings(HouseSettings):
    """House settings for one Stud Poker table; `max_payout` is the cap of art. 9, 5), (7)-(9)."""

    rule_version: RuleVersion
    royal_odds: int = 50
    max_payout: Decimal = Field(gt=0, le=MAX_AMOUNT, decimal_places=2)

    @model_validator(mode="after")
    def _royal_odds_allowed(self) -> StudPokerSettings:
        odds = self.royal_odds
        if self.rule_version is RuleVersion.V2003 and odds != 50:
            raise SettingOutsideRegulation(
                f"a royal flush at {odds}:1 is outside DICJ 69/2003: "
                "art. 9, 5), (9) fixes it at 50:1."
            )
        if not 50 <= odds <= 100:
            raise SettingOutsideRegulation(
                f"a royal flush at {odds}:1 is outside DICJ 61/2004: art. 9, 5), (9) allows "
                "50:1 to 100:1, chosen by the house with DICJ authorisation (art. 13)."
            )
        return self


RAISE_ODDS: Mapping[HandCategory, int] = {  # art. 9, 5); the royal flush's odds are a setting
    HandCategory.HIGH_CARD: 1, HandCategory.ONE_PAIR: 1, HandCategory.TWO_PAIRS: 2,
    HandCategory.THREE_OF_A_KIND: 3, HandCategory.STRAIGHT: 4, HandCategory.FLUSH: 5,
    HandCategory.FULL_HOUSE: 7, HandCategory.FOUR_OF_A_KIND: 20, HandCategory.STRAIGHT_FLUSH: 50,
}
CAPPED = frozenset({HandCategory.FOUR_OF_A_KIND, HandCategory.STRAIGHT_FLUSH,
                    HandCategory.ROYAL_FLUSH})


def raise_odds(category: HandCategory, settings: StudPokerSettings) -> int:
    return settings.royal_odds if category is HandCategory.ROYAL_FLUSH else RAISE_ODDS[category]


