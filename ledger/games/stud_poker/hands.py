"""Stud Poker hand values (art. 8) and the dealer's qualification (art. 9)."""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from itertools import combinations_with_replacement

from ledger.core.cards import DECK, Card, Rank, Suit, format_cards, parse_cards
from ledger.core.errors import InvalidInput

ANTE, RAISE, JACKPOT = "ante", "raise", "jackpot"
BOXES = range(1, 8)  # art. 2, 1): eight places including the dealer's
HAND_SIZE = 5


class HandCategory(StrEnum):
    """Art. 8, high to low. Compare categories by `strength`, never by name."""

    ROYAL_FLUSH = "royal_flush"
    STRAIGHT_FLUSH = "straight_flush"
    FOUR_OF_A_KIND = "four_of_a_kind"
    FULL_HOUSE = "full_house"
    FLUSH = "flush"
    STRAIGHT = "straight"
    THREE_OF_A_KIND = "three_of_a_kind"
    TWO_PAIRS = "two_pairs"
    ONE_PAIR = "one_pair"
    HIGH_CARD = "high_card"

    @property
    def strength(self) -> int:
        """9 for royal_flush down to 0 for high_card."""
        return len(HandCategory) - 1 - list(HandCategory).index(self)


@dataclass(frozen=True, slots=True, order=True)
class HandValue:
    """A five-card hand's place in art. 8's order; only `key` takes part in comparisons.

    `ranks` are the ranks the tie-break reads, in order; `suit` is the last tie-break (None
    where art. 8 ignores suits: four of a kind, full house, three of a kind).
    """

    key: int
    category: HandCategory = field(compare=False)
    ranks: tuple[Rank, ...] = field(compare=False)
    suit: Suit | None = field(compare=False)

    def __str__(self) -> str:
        ranks = " ".join(rank.symbol for rank in self.ranks)
        return f"{self.category} {ranks}" + ("" if self.suit is None else f" {self.suit.symbol}")


def _straight_top(ranks: tuple[int, ...]) -> int | None:
    """Top card of five distinct ranks (high to low) in sequence; 5 in 5-4-3-2-A (art. 4, 3))."""
    if ranks[0] - ranks[4] == 4:
        return ranks[0]
    return 5 if ranks == (14, 5, 4, 3, 2) else None


def _classify(ranks: tuple[int, ...], flush: bool) -> tuple[HandCategory, tuple[int, ...], int]:
    """Category, tie-break ranks, and the rank whose best suit breaks the last tie."""
    groups = sorted(Counter(ranks).items(), key=lambda item: (item[1], item[0]), reverse=True)
    shape = tuple(count for _, count in groups)
    order = tuple(rank for rank, _ in groups)
    by_shape = {(4, 1): HandCategory.FOUR_OF_A_KIND, (3, 2): HandCategory.FULL_HOUSE,
                (3, 1, 1): HandCategory.THREE_OF_A_KIND}
    if shape in by_shape:  # art. 8, 3), 4), 7): the odd cards and suits are ignored
        return by_shape[shape], order[:1], order[0]
    if shape == (2, 2, 1):
        return HandCategory.TWO_PAIRS, order, order[0]
    if shape == (2, 1, 1, 1):
        return HandCategory.ONE_PAIR, order, order[0]
    top = _straight_top(order)
    if top is not None and flush:
        royal = top == Rank.ACE
        return (HandCategory.ROYAL_FLUSH if royal else HandCategory.STRAIGHT_FLUSH), (top,), top
    if flush:
        return HandCategory.FLUSH, order, order[0]
    if top is not None:
        return HandCategory.STRAIGHT, (top,), top
    return HandCategory.HIGH_CARD, order, order[0]


def _values(ranks: tuple[int, ...], flush: bool) -> tuple[tuple[HandValue, ...], int]:
    """The four values a rank pattern can take (one per tie-break suit), and the bit shift of
    the rank whose suits decide among them."""
    category, tie_ranks, suit_rank = _classify(ranks, flush)
    key = category.strength
    for rank in tie_ranks + (0,) * (HAND_SIZE - len(tie_ranks)):
        key = key * 16 + rank
    suited = category not in (HandCategory.FOUR_OF_A_KIND, HandCategory.FULL_HOUSE,
                              HandCategory.THREE_OF_A_KIND)
    tie = tuple(Rank(rank) for rank in tie_ranks)
    values = tuple(
        HandValue(key * 4 + (suit if suited else 0), category, tie, suit if suited else None)
        for suit in Suit
    )
    return values, suit_rank * 4


# A multiset of ranks sums to a unique number in base 5 (no rank appears more than 4 times).
_WEIGHT = tuple(5 ** (rank - 2) if rank >= 2 else 0 for rank in range(15))
Patterns = dict[int, tuple[tuple[HandValue, ...], int, tuple[HandValue, ...] | None]]
_PATTERNS: Patterns = {}
_MAKING_PATTERNS = threading.Lock()


def _patterns() -> Patterns:
    """Every rank pattern's values, made on the first hand valued (a seventh of a second: not
    at import, which every `ledger` command pays, most of them never valuing a hand). Made
    whole, then published in one assignment, so no thread sees half of it; made once, so that
    a floor's tables valuing their first hands together wait for one making, not each make
    their own under the interpreter lock."""
    global _PATTERNS
    with _MAKING_PATTERNS:
        if not _PATTERNS:
            made: Patterns = {}
            for ranks in combinations_with_replacement(range(14, 1, -1), HAND_SIZE):
                if max(Counter(ranks).values()) <= 4:
                    plain, shift = _values(ranks, flush=False)
                    flush = (_values(ranks, flush=True)[0] if len(set(ranks)) == HAND_SIZE
                             else None)
                    made[sum(_WEIGHT[rank] for rank in ranks)] = (plain, shift, flush)
            _PATTERNS = made
    return _PATTERNS


def prepare() -> None:
    """Makes the rank patterns now, for a process that serves many tables (its first Stud Poker
    settlement then waits for nothing)."""
    _patterns()


# Per card (index rank * 4 + suit): its rank's weight above bit 64, its own bit below. One sum
# of five gives the rank pattern and the set of cards, four bits per rank so that a rank's
# suits are one nibble. A repeated card carries into another bit: five bits set, five cards.
_CARD_BITS = (1 << 64) - 1
_CARD = [0] * 64
for _card in DECK:
    _CARD[_card.rank * 4 + _card.suit] = _WEIGHT[_card.rank] << 64 | 1 << _card.index + 8


def evaluate(cards: Iterable[Card] | str) -> HandValue:
    """The art. 8 value of five distinct cards; a total order, suit tie-breaks included.

    >>> evaluate("AS KS QS JS TS") > evaluate("AH KH QH JH TH")
    True
    >>> str(evaluate("5D 4C 3H 2S AS"))
    'straight 5 D'
    """
    if type(cards) is not tuple:
        cards = _as_tuple(cards)
    try:
        a, b, c, d, e = cards
        suit = a.suit
        total = (_CARD[a.rank * 4 + suit] + _CARD[b.rank * 4 + b.suit]
                 + _CARD[c.rank * 4 + c.suit] + _CARD[d.rank * 4 + d.suit]
                 + _CARD[e.rank * 4 + e.suit])
        plain, shift, flush = (_PATTERNS or _patterns())[total >> 64]
    except (ValueError, TypeError, AttributeError, IndexError, KeyError):
        raise _not_a_hand(cards) from None
    mask = total & _CARD_BITS
    if mask.bit_count() != HAND_SIZE:
        raise _not_a_hand(cards)
    values = flush if flush is not None and suit == b.suit == c.suit == d.suit == e.suit else plain
    return values[((mask >> shift) & 15).bit_length() - 1]


def _as_tuple(cards: Iterable[Card] | str) -> tuple[Card, ...]:
    if isinstance(cards, str):
        return parse_cards(cards)
    try:
        return tuple(cards)
    except TypeError:
        raise InvalidInput(f"{cards!r} is not a hand: a hand is five cards, AS KH ...") from None


def _not_a_hand(cards: Sequence[object]) -> InvalidInput:
    strangers = [item for item in cards if not isinstance(item, Card)]
    if strangers:
        return InvalidInput(f"{strangers[0]!r} is not a card: a hand is five cards such as AS KH.")
    hand = [card for card in cards if isinstance(card, Card)]  # every one of them, by now
    if len(cards) != HAND_SIZE:
        shown = format_cards(hand) or "none"
        return InvalidInput(f"a Stud Poker hand has five cards, not {len(cards)}: {shown}.")
    twice = [str(card) for card, count in Counter(cards).items() if count > 1]
    if twice:
        return InvalidInput(f"{twice[0]} appears twice: a hand is five different cards.")
    shown = format_cards(hand)
    return InvalidInput(f"{shown} is not a hand: a card has no rank or suit of a deck.")


def _qualifies(value: HandValue) -> bool:
    ace_king = value.ranks[:2] == (Rank.ACE, Rank.KING)
    return value.category is not HandCategory.HIGH_CARD or ace_king


def dealer_qualifies(cards: Iterable[Card] | str) -> bool:
    """Art. 9, 1): the dealer opens with A-K high or better.

    >>> dealer_qualifies("AS KD 7C 4H 2S"), dealer_qualifies("AS QD JC 9H 8S")
    (True, False)
    """
    return _qualifies(evaluate(cards))

