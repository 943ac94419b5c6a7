"""How a game's cards come to the table: decks, the cut card, burns, the shuffler.

A game's `ShoePolicy` answers what the shoe handlers ask of it. The answers are the game's
regulation; the checks that need the house settings (how many cards a burn takes, how many
coups follow the cut card) are methods a game may override.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ledger.core.cards import Card
    from ledger.games.settings import HouseSettings


@dataclass(frozen=True)
class ShoePolicy:
    """A game's shoe procedure, as data.

    >>> ShoePolicy(single_deck=True).decks(None)
    1
    """

    single_deck: bool = False
    """One deck shuffled afresh for each round, by hand or by a shuffler; never by an automatic
    shuffler-dealer, and its blank card goes to the bottom of the deck."""
    cut_card: bool = False
    """A cut card near the end of a multi-deck shoe marks its last coup: a cut says where."""
    cards_behind_cut: int | None = None
    """Where the regulation fixes the cut card: before this many last cards."""
    burns_at_shoe_start: bool = False
    """The shoe's first cards are burned, once, before its first coup."""
    burn_refusal: str | None = None
    """The sentence that refuses a burn at the shoe's start, where the game burns otherwise."""

    def decks(self, settings: HouseSettings | None) -> int:
        """How many decks the table's shoe holds under its house settings."""
        return 1 if self.single_deck else int(getattr(settings, "decks", 1))

    def check_burn(self, settings: HouseSettings, cards: tuple[Card, ...], count: int) -> None:
        """Refuse a burn at the shoe's start that the house settings do not call for."""

    def coups_after_cut_card(self, settings: HouseSettings) -> int:
        """How many coups are still dealt after the one that reached the cut card."""
        return 0
