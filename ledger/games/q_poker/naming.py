"""Q Poker's cards in words: a hand as `ledger hand` values it, a recorded hand's value."""

from __future__ import annotations

from collections.abc import Sequence

from ledger.core.cards import Card
from ledger.games.facts import DEALER
from ledger.games.protocol import HandValue, NamedCards
from ledger.games.q_poker.rules import HAND_SIZE, Category, dealer_qualifies, evaluate
from ledger.games.q_poker.rules import HandValue as QHandValue
from ledger.games.words import many, named_poker_hand, one


def name_cards(cards: Sequence[Card]) -> NamedCards:
    """The hand's category, and whether it would qualify as the dealer's."""
    return named_poker_hand(cards, str(evaluate(cards).category), dealer_qualifies(cards))


def hand_value(target: str, cards: tuple[Card, ...]) -> HandValue:
    """A complete hand's value in words; the dealer's, whether it qualifies."""
    if len(cards) != HAND_SIZE:
        return HandValue(None, None, None)
    qualifies = dealer_qualifies(cards) if target == DEALER else None
    value = evaluate(cards)
    return HandValue(str(value), q_poker_name(value), qualifies)


def q_poker_name(value: QHandValue) -> str:
    """`Three of a kind, sevens`: a Q Poker hand as a dealer says it."""
    kind = Category
    ranks = [card.rank for card in value.cards]  # high to low
    paired = next((rank for rank in ranks if ranks.count(rank) == 2), ranks[0])
    top = ranks[1] if sorted(ranks) == [2, 3, 14] else ranks[0]  # A-2-3: three high
    return {
        kind.STRAIGHT_FLUSH: f"Straight flush, {one(top)} high",
        kind.THREE_OF_A_KIND: f"Three of a kind, {many(ranks[0])}",
        kind.STRAIGHT: f"Straight, {one(top)} high",
        kind.FLUSH: f"Flush, {one(ranks[0])} high",
        kind.ONE_PAIR: f"One pair of {many(paired)}",
        kind.HIGH_CARD: f"High card, {one(ranks[0])} high",
    }[value.category]
