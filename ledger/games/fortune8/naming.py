"""Fortune 8's cards in words: which box each card makes win (art. 8)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ledger.core.cards import Card
from ledger.games.fortune8.rules import winning_box
from ledger.games.protocol import HandValue, NamedCards


def name_cards(cards: Sequence[Card]) -> NamedCards:
    """The winning box of each card.

    >>> from ledger.core.cards import parse_cards
    >>> name_cards(parse_cards("8H")).line
    '8H: box 8 wins'
    """
    said: dict[str, Any] = {
        "winning_boxes": [{"card": str(card), "box": winning_box(card)} for card in cards]}
    line = ", ".join(f"{w['card']}: box {w['box']} wins" for w in said["winning_boxes"])
    return NamedCards(said, line)


def hand_value(target: str, cards: tuple[Card, ...]) -> HandValue:
    """A space's one card: the box it makes win."""
    value = f"{winning_box(cards[0])} wins" if len(cards) == 1 else None
    return HandValue(value, value and f"box {value}", None)
