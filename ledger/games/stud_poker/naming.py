"""Stud Poker's cards in words: a hand as `ledger hand` values it, a recorded hand's value."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ledger.cards import Card, format_cards
from ledger.games.facts import DEALER
from ledger.games.protocol import HandValue, NamedCards
from ledger.games.stud_poker.rules import HAND_SIZE, dealer_qualifies, evaluate


def name_cards(cards: Sequence[Card]) -> NamedCards:
    """The hand's category, and whether it would qualify as the dealer's."""
    from ledger.wording import term

    value = evaluate(cards)
    said: dict[str, Any] = {"category": str(value.category),
                            "dealer_qualifies": dealer_qualifies(cards)}
    qualifies = "qualifies" if said["dealer_qualifies"] else "does not qualify"
    line = f"{format_cards(cards)}: {term(value.category)} (as dealer's hand: {qualifies})"
    return NamedCards(said, line)


def hand_value(target: str, cards: tuple[Card, ...]) -> HandValue:
    """A complete hand's value in words; the dealer's, whether it qualifies."""
    from ledger.audit.views import stud_name  # hands in words, as the audit trail says them

    if len(cards) != HAND_SIZE:
        return HandValue(None, None, None)
    qualifies = dealer_qualifies(cards) if target == DEALER else None
    value = evaluate(cards)
    return HandValue(str(value), stud_name(value, cards), qualifies)


def dealer_summary(cards: Sequence[str]) -> str:
    """The dealer's hand and whether it qualifies (art. 9): what each box's result turned on;
    "" for a hand not shown in full."""
    from ledger.audit.views import stud_name
    from ledger.cards import parse_cards

    if not cards or len(cards) != HAND_SIZE:
        return ""
    hand = tuple(parse_cards(cards))
    plays = "qualifies" if dealer_qualifies(hand) else "does not qualify"
    named = stud_name(evaluate(hand), hand)
    return f"dealer {' '.join(cards)}, {named[0].lower()}{named[1:]}: {plays}"
