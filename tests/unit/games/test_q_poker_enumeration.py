"""Every three-card hand of one deck: the reference counts, and an order with no tie that a
dealer and a box could ever meet."""

from collections import Counter, defaultdict
from itertools import combinations, pairwise

import pytest

from ledger.core.cards import DECK, Card
from ledger.games.q_poker.rules import Category, HandValue, dealer_qualifies, evaluate

# its module fixture is built once: the file runs in one process when the run is spread
pytestmark = pytest.mark.xdist_group("q-poker-enumeration")

ALL_HANDS = tuple(combinations(DECK, 3))


@pytest.fixture(scope="module")
def values() -> dict[tuple[Card, ...], HandValue]:
    return {hand: evaluate(hand) for hand in ALL_HANDS}


def test_qpoker_art8_all_22100_hands_fall_in_the_reference_category_counts(values):
    counts = Counter(value.category for value in values.values())

    assert len(values) == 22_100
    assert counts == {
        Category.STRAIGHT_FLUSH: 48,
        Category.THREE_OF_A_KIND: 52,
        Category.STRAIGHT: 720,
        Category.FLUSH: 1_096,
        Category.ONE_PAIR: 3_744,
        Category.HIGH_CARD: 16_440,
    }


def test_qpoker_art8_hands_tie_only_when_they_share_a_card(values):
    # Art. 8 breaks ties on three of a kind by rank alone, on a pair by the odd card, on a
    # straight or high card by the top card: hands that tie always hold a card in common, so
    # two hands dealt from one deck never tie.
    classes: dict[tuple[int, ...], list[tuple[Card, ...]]] = defaultdict(list)
    for hand, value in values.items():
        classes[value.key].append(hand)

    for tied in classes.values():
        for first, second in combinations(tied, 2):
            assert set(first) & set(second), f"{first} and {second} tie with no common card"


def test_qpoker_art8_ties_are_exactly_those_the_tie_breaks_leave(values):
    classes = Counter(value.key for value in values.values())
    sizes_by_category: dict[Category, set[int]] = defaultdict(set)
    for hand_value in values.values():
        sizes_by_category[hand_value.category].add(classes[hand_value.key])

    assert len(classes) == 2_925
    assert sizes_by_category == {
        Category.STRAIGHT_FLUSH: {1},
        Category.THREE_OF_A_KIND: {4},  # the rank of the three alone
        Category.STRAIGHT: {15},  # ranks and the top card: the two others' suits are free
        Category.FLUSH: {1},
        Category.ONE_PAIR: {6},  # ranks and the odd card: the pair's suits are free
        Category.HIGH_CARD: {15},  # ranks and the top card, less the flush
    }


def test_qpoker_art8_sorting_all_hands_gives_a_consistent_total_order(values):
    ranked = sorted(values.values())

    for lower, higher in pairwise(ranked):
        assert lower <= higher
        assert (lower == higher) == (lower.key == higher.key)
        assert lower.category.strength <= higher.category.strength
    assert ranked[0] == evaluate("5D 3C 2H")  # lowest: 5-high, the 5 a diamond
    assert ranked[-1] == evaluate("AS KS QS")


def test_qpoker_art9_4_exactly_the_hands_below_queen_high_do_not_qualify(values):
    # High cards topped by a jack or less: 112 rank sets (120 less 8 straights) x 60 suit sets.
    not_qualifying = [hand for hand in values if not dealer_qualifies(hand)]

    assert len(not_qualifying) == 6_720
    assert all(values[hand].category == Category.HIGH_CARD for hand in not_qualifying)
    assert max(card.rank for hand in not_qualifying for card in hand).symbol == "J"
