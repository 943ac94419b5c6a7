"""Card ranks in words, as a dealer says them (`queen`, `sevens`), and a poker hand as `ledger
hand` says it under the games whose dealer must qualify."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ledger.core.cards import Card, format_cards
from ledger.games.protocol import NamedCards

WORDS = {2: ("two", "twos"), 3: ("three", "threes"), 4: ("four", "fours"), 5: ("five", "fives"),
         6: ("six", "sixes"), 7: ("seven", "sevens"), 8: ("eight", "eights"),
         9: ("nine", "nines"), 10: ("ten", "tens"), 11: ("jack", "jacks"),
         12: ("queen", "queens"), 13: ("king", "kings"), 14: ("ace", "aces")}


def one(rank: int) -> str:
    return WORDS[int(rank)][0]


def many(rank: int) -> str:
    return WORDS[int(rank)][1]


def in_sentence(name: str) -> str:
    """A hand's name inside a sentence, as every screen says it there: lower case (`flush,
    queen high`); alone, as a value (`HandValue.name`), it reads `Flush, queen high`.

    >>> in_sentence("Full house, kings over threes")
    'full house, kings over threes'
    """
    return name[:1].lower() + name[1:]


def named_poker_hand(cards: Sequence[Card], category: str, qualifies: bool) -> NamedCards:
    """The hand's category, and whether it would qualify as the dealer's."""
    said: dict[str, Any] = {"category": category, "dealer_qualifies": qualifies}
    as_dealer = "qualifies" if qualifies else "does not qualify"
    line = (f"{format_cards(cards)}: {category.replace('_', ' ')} "  # `three_of_a_kind` in words
            f"(as dealer's hand: {as_dealer})")
    return NamedCards(said, line)
