"""Baccarat's cards in words: a coup as `ledger hand` plays it, a recorded hand's points."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ledger.core.cards import Card, format_cards
from ledger.games.baccarat.coup import card_value, play_coup
from ledger.games.protocol import HandValue, NamedCards


def name_cards(cards: Sequence[Card]) -> NamedCards:
    """The coup these cards make, dealt in order.

    >>> from ledger.core.cards import parse_cards
    >>> name_cards(parse_cards("2S 4H 3D KC 5H 8D")).line
    'player 2S 3D 5H = 0, banker 4H KC 8D = 2: banker wins'
    """
    coup = play_coup(cards)
    said: dict[str, Any] = {
        "player_cards": [str(c) for c in coup.player_cards], "player_total": coup.player_total,
        "banker_cards": [str(c) for c in coup.banker_cards], "banker_total": coup.banker_total,
        "winner": str(coup.winner), "player_pair": coup.player_pair,
        "banker_pair": coup.banker_pair}
    line = (f"player {format_cards(coup.player_cards)} = {coup.player_total}, "
            f"banker {format_cards(coup.banker_cards)} = {coup.banker_total}: "
            + (f"{coup.winner} wins" if coup.winner != "tie" else "tie"))
    return NamedCards(said, line)


def hand_value(target: str, cards: tuple[Card, ...]) -> HandValue:
    """A side's points, and whether its first two cards pair."""
    total = sum(card_value(card) for card in cards) % 10
    pair = len(cards) >= 2 and cards[0].rank == cards[1].rank
    value = f"{total}" + (" with a pair" if pair else "")
    return HandValue(value, f"{total} point{'' if total == 1 else 's'}"
                     + (", a pair" if pair else ""), None)
