"""Q Poker three-card hand values (art. 8) and the dealer's qualification."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from ledger.core.cards import Card, Rank, format_cards, parse_cards
from ledger.core.errors import InvalidInput

# --- Hand values (art. 4 and 8) ------------------------------------------------------------


class Category(StrEnum):
    """Art. 8, high to low; the position in this list is the category's strength."""

    STRAIGHT_FLUSH = "straight_flush"
    THREE_OF_A_KIND = "three_of_a_kind"
    STRAIGHT = "straight"
    FLUSH = "flush"
    ONE_PAIR = "one_pair"
    HIGH_CARD = "high_card"

    @property
    def strength(self) -> int:
        return len(Category) - 1 - list(Category).index(self)


@dataclass(frozen=True, order=True, slots=True)
class HandValue:
    """What three cards are worth. Compared by `key` alone: category strength, then art. 8's
    tie-breaks, so `==` means a tie, not the same cards. Two hands that share no card never
    tie (checked over all 22,100 hands), so a box and the dealer always have a winner."""

    key: tuple[int, ...]
    category: Category = field(compare=False)
    cards: tuple[Card, ...] = field(compare=False)  # high to low, for display only

    def __str__(self) -> str:
        return f"{self.category} ({format_cards(self.cards)})"


def _three_distinct_cards(cards: Iterable[Card] | str) -> tuple[Card, ...]:
    not_cards = InvalidInput("a Q Poker hand is made of cards: use Card values or codes like 'AS'.")
    try:
        hand = parse_cards(cards) if isinstance(cards, str) else tuple(cards)
    except TypeError:
        raise not_cards from None
    if not all(isinstance(card, Card) for card in hand):
        raise not_cards
    if len(hand) != 3 or len(set(hand)) != 3:
        raise InvalidInput(f"a Q Poker hand is three different cards; got '{format_cards(hand)}'.")
    return hand


def _straight_top(cards: Sequence[Card]) -> Card | None:
    """The top card of a straight, or None. A-2-3 is the lowest straight: its top card is the 3."""
    ranks = sorted(card.rank for card in cards)
    if ranks == [Rank.TWO, Rank.THREE, Rank.ACE]:
        return next(card for card in cards if card.rank == Rank.THREE)
    if len(set(ranks)) == 3 and ranks[2] - ranks[0] == 2:
        return cards[0]
    return None


def evaluate(cards: Iterable[Card] | str) -> HandValue:
    """Value of three distinct cards, totally ordered as art. 4 and 8 rank them.

    >>> evaluate("AS KS QS") > evaluate("2D 2C 2H")
    True
    >>> evaluate("AD 2C 3H") < evaluate("4C 3D 2H")  # A-2-3 is the lowest straight
    True
    """
    hand = tuple(sorted(_three_distinct_cards(cards), key=lambda c: (c.rank, c.suit), reverse=True))
    high = hand[0]
    ranks = tuple(card.rank.value for card in hand)
    flush = len({card.suit for card in hand}) == 1
    top = _straight_top(hand)
    ties: tuple[int, ...]
    if top is not None and flush:
        category, ties = Category.STRAIGHT_FLUSH, (top.rank, top.suit)
    elif ranks[0] == ranks[2]:
        category, ties = Category.THREE_OF_A_KIND, (ranks[0],)
    elif top is not None:
        category, ties = Category.STRAIGHT, (top.rank, top.suit)
    elif flush:
        category, ties = Category.FLUSH, (*ranks, high.suit)
    elif ranks[0] == ranks[1] or ranks[1] == ranks[2]:
        odd = hand[2] if ranks[0] == ranks[1] else hand[0]
        category, ties = Category.ONE_PAIR, (ranks[1], odd.rank, odd.suit)
    else:
        category, ties = Category.HIGH_CARD, (*ranks, high.suit)
    key = (category.strength, *(int(tie) for tie in ties))
    return HandValue(key=key, category=category, cards=hand)


QUEEN_HIGH = (Category.HIGH_CARD.strength, Rank.QUEEN.value)


def dealer_qualifies(cards: Iterable[Card] | str) -> bool:
    """Art. 9(4): the dealer plays only with Q-high or better."""
    return evaluate(cards).key[:2] >= QUEEN_HIGH


# --- House settings (art. 1, 2) ------------------------------------------------------------

