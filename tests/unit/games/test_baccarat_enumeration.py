"""Exact coup probabilities for a fresh shoe, by complete enumeration through `play_coup`.

The shoe is dealt without replacement. Only values matter to the winner, so the enumeration
runs over 10 value classes (value 0 holds T, J, Q, K: 16 cards a deck; the others 4) and
plays each distinct value sequence once, with representative cards, weighted by how many
ordered card sequences it stands for. A prefix that completes a coup in 4 or 5 cards stands
for every way of dealing the cards after it, so each coup is played with exactly the cards it
uses, and all weights are scaled to the first six cards of the shoe. No floats anywhere.
About 3 seconds a shoe, so not marked slow.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

from ledger.core.cards import Card, Rank, Suit
from ledger.core.errors import InvalidInput
from ledger.games.baccarat.rules import Winner, play_coup

REPRESENTATIVE = {
    value: Card(Rank.TEN if value == 0 else Rank.ACE if value == 1 else Rank(value), Suit.SPADES)
    for value in range(10)
}


def _falling(n: int, k: int) -> int:
    product = 1
    for i in range(k):
        product *= n - i
    return product


def enumerate_shoe(decks: int) -> dict[Winner, Fraction]:
    """P(banker), P(player), P(tie) on the first coup of a fresh shoe of `decks` decks."""
    left = [16 * decks] + [4 * decks] * 9
    shoe = sum(left)
    tally: Counter[Winner] = Counter()

    def deal(prefix: list[int], weight: int) -> None:
        if len(prefix) >= 4:
            try:
                coup = play_coup([REPRESENTATIVE[value] for value in prefix])
            except InvalidInput:  # the tableau needs another card
                coup = None
            if coup is not None:
                assert coup.cards_used == len(prefix)
                tally[coup.winner] += weight * _falling(shoe - len(prefix), 6 - len(prefix))
                return
        for value in range(10):
            if left[value]:
                left[value] -= 1
                deal([*prefix, value], weight * (left[value] + 1))
                left[value] += 1

    deal([], 1)
    assert sum(tally.values()) == _falling(shoe, 6), "every six-card start counted once"
    return {winner: Fraction(count, _falling(shoe, 6)) for winner, count in tally.items()}


def _six_places(figures: dict[Winner, Fraction]) -> dict[str, Fraction]:
    return {str(winner): round(chance, 6) for winner, chance in figures.items()}


def test_baccarat_eight_deck_shoe_matches_the_published_figures() -> None:
    figures = enumerate_shoe(8)
    assert _six_places(figures) == {
        "banker": Fraction("0.458597"),
        "player": Fraction("0.446247"),
        "tie": Fraction("0.095156"),
    }


def test_baccarat_six_deck_shoe_matches_the_published_figures() -> None:
    figures = enumerate_shoe(6)
    assert _six_places(figures) == {
        "banker": Fraction("0.458653"),
        "player": Fraction("0.446279"),
        "tie": Fraction("0.095069"),
    }
