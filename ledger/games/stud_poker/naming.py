"""Stud Poker's cards in words: a hand as `ledger hand` values it, a recorded hand's value."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ledger.core.cards import Card
from ledger.games.facts import DEALER
from ledger.games.protocol import HandValue, NamedCards
from ledger.games.stud_poker.rules import HAND_SIZE, HandCategory, dealer_qualifies, evaluate
from ledger.games.stud_poker.rules import HandValue as StudHandValue
from ledger.games.words import in_sentence, many, named_poker_hand, one


def name_cards(cards: Sequence[Card]) -> NamedCards:
    """The hand's category, and whether it would qualify as the dealer's."""
    return named_poker_hand(cards, str(evaluate(cards).category), dealer_qualifies(cards))


def hand_value(target: str, cards: tuple[Card, ...]) -> HandValue:
    """A complete hand's value in words; the dealer's, whether it qualifies."""
    if len(cards) != HAND_SIZE:
        return HandValue(None, None, None)
    qualifies = dealer_qualifies(cards) if target == DEALER else None
    value = evaluate(cards)
    return HandValue(str(value), stud_name(value, cards), qualifies)


def dealer_summary(cards: Sequence[str]) -> str:
    """The dealer's hand and whether it qualifies (art. 9): what each box's result turned on;
    "" for a hand not shown in full."""
    from ledger.core.cards import face, parse_cards

    if not cards or len(cards) != HAND_SIZE:
        return ""
    hand = tuple(parse_cards(cards))
    plays = "qualifies" if dealer_qualifies(hand) else "does not qualify"
    named = in_sentence(stud_name(evaluate(hand), hand))
    return f"dealer {' '.join(face(card) for card in hand)}, {named}: {plays}"


def stud_name(value: StudHandValue, cards: tuple[Card, ...]) -> str:
    """`Flush, queen high`: a Stud Poker hand as a dealer says it (art. 8's categories)."""
    kind, ranks = HandCategory, value.ranks
    counts = Counter(card.rank for card in cards)
    pair = next((rank for rank, n in counts.items() if n == 2), ranks[0])  # a full house's
    said: dict[HandCategory, Callable[[], str]] = {  # each said only when it is the hand's
        kind.ROYAL_FLUSH: lambda: "Royal flush",
        kind.STRAIGHT_FLUSH: lambda: f"Straight flush, {one(ranks[0])} high",
        kind.FOUR_OF_A_KIND: lambda: f"Four of a kind, {many(ranks[0])}",
        kind.FULL_HOUSE: lambda: f"Full house, {many(ranks[0])} over {many(pair)}",
        kind.FLUSH: lambda: f"Flush, {one(ranks[0])} high",
        kind.STRAIGHT: lambda: f"Straight, {one(ranks[0])} high",
        kind.THREE_OF_A_KIND: lambda: f"Three of a kind, {many(ranks[0])}",
        kind.TWO_PAIRS: lambda: f"Two pairs, {many(ranks[0])} and {many(ranks[1])}",
        kind.ONE_PAIR: lambda: f"One pair of {many(ranks[0])}",
        kind.HIGH_CARD: lambda: f"High card, {one(ranks[0])} high",
    }
    return said[value.category]()


def describe_boxes(bets: Sequence[Mapping[str, Any]]) -> str:
    """Art. 9: a box that beats a qualifying dealer, or any box when the dealer does not
    qualify, wins its ante; one the dealer beats loses; one that would not raise folds.

    >>> describe_boxes([{"box": 3, "spot": "ante", "outcome": "won"},
    ...                 {"box": 2, "spot": "ante", "outcome": "lost"}])
    'box 3 wins; box 2 folds'
    """
    raised = {bet["box"] for bet in bets if bet["spot"] == "raise"}
    said: dict[str, list[int]] = {}
    for bet in bets:
        if bet["spot"] == "ante":
            outcome = {"won": "win", "lost": "lose" if bet["box"] in raised else "fold"}.get(
                bet["outcome"], "returned")
            said.setdefault(outcome, []).append(bet["box"])
    return "; ".join(_listed(said[verb], verb) for verb in ("win", "lose", "fold", "returned")
                     if verb in said)


def _listed(boxes: list[int], verb: str) -> str:
    numbers = [str(box) for box in sorted(set(boxes))]
    if len(numbers) == 1:
        return f"box {numbers[0]} {verb if verb == 'returned' else verb + 's'}"
    joined = ", ".join(numbers[:-1]) + f" and {numbers[-1]}"
    return f"boxes {joined} {verb}"
