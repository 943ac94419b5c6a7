"""Q Poker's cards in words: a hand as `ledger hand` values it, a recorded hand's value."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ledger.cards import Card, format_cards
from ledger.games.facts import DEALER
from ledger.games.protocol import HandValue, NamedCards
from ledger.games.q_poker.rules import HAND_SIZE, dealer_qualifies, evaluate


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
    from ledger.audit.views import q_poker_name  # hands in words, as the audit trail says them

    if len(cards) != HAND_SIZE:
        return HandValue(None, None, None)
    qualifies = dealer_qualifies(cards) if target == DEALER else None
    value = evaluate(cards)
    return HandValue(str(value), q_poker_name(value), qualifies)
