"""Baccarat's shoe (DICJ 55/2004 art. 2, 3): six to twelve decks, a cut card near the end, the
first cards burned by the number of decks or by the first card's value, and the house's
choice of one more coup after the cut card comes out."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

from ledger.core.errors import InvalidInput, RuleViolation
from ledger.games.shoe import ShoePolicy

if TYPE_CHECKING:
    from ledger.core.cards import Card
    from ledger.games.settings import HouseSettings


@dataclass(frozen=True)
class BaccaratShoe(ShoePolicy):
    """Baccarat's shoe: the burn and the last coup follow the table's house settings."""

    def check_burn(self, settings: HouseSettings, cards: tuple[Card, ...], count: int) -> None:
        from ledger.games.baccarat.settings import BaccaratSettings, BurnMethod, burn_count

        house = cast(BaccaratSettings, settings)
        if house.burn_method is BurnMethod.BY_DECKS:
            if count != house.decks:
                raise RuleViolation(
                    f"this table burns as many cards as decks (art. 2(1)): {house.decks}, "
                    f"not {count}."
                )
            return
        if not cards:
            raise InvalidInput(
                "this table burns by the first card's value (art. 2(1)): name the first card "
                "drawn."
            )
        due = burn_count(house.burn_method, house.decks, cards[0])
        if count != due:
            raise RuleViolation(
                f"the first card {cards[0]} is worth {due - 1}: it is burned with {due - 1} "
                f"more, {due} cards in all (art. 2(1)), not {count}."
            )

    def coups_after_cut_card(self, settings: HouseSettings) -> int:
        from ledger.games.baccarat.settings import BaccaratSettings, coups_after_blank_card

        return coups_after_blank_card(cast(BaccaratSettings, settings).last_coup)


SHOE = BaccaratShoe(cut_card=True, burns_at_shoe_start=True)
