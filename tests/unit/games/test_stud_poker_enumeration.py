"""Every five-card hand of one deck: RULES.md's reference counts, and art. 8's order checked
against the rules table written out the slow and obvious way."""

from __future__ import annotations

from collections import Counter
from itertools import combinations, pairwise

import pytest

from ledger.core.cards import DECK, Card
from ledger.games.stud_poker.rules import HandCategory, evaluate
from tests.enumerations import enumerate_again, held

REFERENCE_COUNTS = {
    HandCategory.ROYAL_FLUSH: 4,
    HandCategory.STRAIGHT_FLUSH: 36,
    HandCategory.FOUR_OF_A_KIND: 624,
    HandCategory.FULL_HOUSE: 3_744,
    HandCategory.FLUSH: 5_108,
    HandCategory.STRAIGHT: 10_200,
    HandCategory.THREE_OF_A_KIND: 54_912,
    HandCategory.TWO_PAIRS: 123_552,
    HandCategory.ONE_PAIR: 1_098_240,
    HandCategory.HIGH_CARD: 1_302_540,
}


def reference_key(cards: tuple[Card, ...]) -> tuple[int, ...]:
    """RULES.md's ranking table, row by row, with no precomputation."""
    ranks = sorted((card.rank for card in cards), reverse=True)
    counts = Counter(ranks)
    shape = sorted(counts.values(), reverse=True)
    grouped = sorted(counts, key=lambda rank: (counts[rank], rank), reverse=True)
    flush = len({card.suit for card in cards}) == 1
    top: int | None = ranks[0] if len(counts) == 5 and ranks[0] - ranks[4] == 4 else None
    top = 5 if ranks == [14, 5, 4, 3, 2] else top

    def best_suit(rank: int) -> int:
        return max(card.suit for card in cards if card.rank == rank)

    if top and flush:
        return (9 if top == 14 else 8, top, best_suit(top))
    if shape == [4, 1]:
        return (7, grouped[0])
    if shape == [3, 2]:
        return (6, grouped[0])
    if flush:
        return (5, *ranks, best_suit(ranks[0]))
    if top:
        return (4, top, best_suit(top))
    if shape == [3, 1, 1]:
        return (3, grouped[0])
    if shape == [2, 2, 1]:
        return (2, *grouped, best_suit(grouped[0]))
    if shape == [2, 1, 1, 1]:
        return (1, *grouped, best_suit(grouped[0]))
    return (0, *ranks, best_suit(ranks[0]))


@pytest.mark.slow
def test_all_2598960_hands_fall_in_the_reference_category_counts():
    enumerate_again("stud-poker-hand-counts")
    counts = Counter(evaluate(hand).category for hand in combinations(DECK, 5))
    assert counts == REFERENCE_COUNTS
    assert sum(counts.values()) == 2_598_960
    held("stud-poker-hand-counts")


@pytest.mark.slow
def test_art8_order_over_every_hand_matches_the_rules_table():
    enumerate_again("stud-poker-hand-order")
    reference: dict = {}
    for hand in combinations(DECK, 5):
        key = reference_key(hand)
        assert reference.setdefault(evaluate(hand), key) == key, hand
    ordered = [reference[value] for value in sorted(reference)]
    assert all(low < high for low, high in pairwise(ordered))
    held("stud-poker-hand-order")
