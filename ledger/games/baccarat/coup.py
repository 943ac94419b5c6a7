"""Baccarat's tableau (arts. 7-11): who draws, and the coup's result.

>>> coup = play_coup("2S 4H 3D KC 5H 8D 9S")
>>> print(coup)
player 2S 3D 5H (0), banker 4H KC 8D (2): banker
>>> coup.cards_used
6
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from typing import TypeVar

from ledger.core.cards import Card, Rank, format_cards, parse_cards
from ledger.core.errors import InvalidInput, RuleViolation

REGULATION = "DICJ 55/2004"
MIN_DECKS, MAX_DECKS = 6, 12  # art. 1(1)
MIN_SEATS, MAX_BOXES = 7, 14  # art. 1(5): seven or more seats; one or two layouts of seven
MAX_DEMONSTRATION_COUPS = 3  # art. 2(2)
BANKER_COMMISSION = Fraction(5, 100)  # art. 18: fixed by the regulation, not a house option

_E = TypeVar("_E", bound=StrEnum)


class Side(StrEnum):
    PLAYER = "player"
    BANKER = "banker"


class Winner(StrEnum):
    PLAYER = "player"
    BANKER = "banker"
    TIE = "tie"


def _parse(kind: type[_E], value: str, what: str) -> _E:
    try:
        return kind(value)
    except ValueError:
        known = ", ".join(member.value for member in kind)
        raise InvalidInput(f"'{value}' is not a {what}: use one of {known}.") from None


# --- card values and the tableau (arts. 5, 7, 9, 11) -------------------------------------

_ALL = frozenset(range(10))
# Art. 9(3)-(4): when the player drew, the banker draws on these values of the player's third
# card. The text counts tens and faces as 10; their value is 0, so 10 appears here as 0.
BANKER_DRAWS_ON: dict[int, frozenset[int]] = {
    0: _ALL, 1: _ALL, 2: _ALL, 3: _ALL - {8}, 4: frozenset(range(2, 8)),
    5: frozenset(range(4, 8)), 6: frozenset({6, 7}), 7: frozenset(),
}
_INITIAL_DEAL = (Side.PLAYER, Side.BANKER, Side.PLAYER, Side.BANKER)  # art. 7(1)


def card_value(card: Card) -> int:
    """Art. 5: tens and faces count 0, an ace 1, every other card its face value."""
    if card.rank == Rank.ACE:
        return 1
    return 0 if card.rank >= Rank.TEN else int(card.rank)


def _two_card_totals(values: Sequence[int]) -> tuple[int, int]:
    return (values[0] + values[2]) % 10, (values[1] + values[3]) % 10


def _due(values: Sequence[int]) -> Side | None:
    """Who receives the next card, given the values dealt so far (assumed consistent)."""
    count = len(values)
    if count < 4:
        return _INITIAL_DEAL[count]
    player, banker = _two_card_totals(values)
    if count == 6 or player >= 8 or banker >= 8:  # art. 9(2), 9(4)(6): a natural stops all
        return None
    player_drew = player <= 5  # art. 9(1)
    if count == 4:
        if player_drew:
            return Side.PLAYER
        return Side.BANKER if banker <= 5 else None  # art. 9(3)(6), 9(4)(4)
    if player_drew and values[4] in BANKER_DRAWS_ON[banker]:
        return Side.BANKER
    return None


def _values(cards: Sequence[Card]) -> list[int]:
    """The values of a coup's cards, refusing a sequence the tableau could not have dealt."""
    values = [card_value(card) for card in cards]
    for index in range(4, len(values)):
        if _due(values[:index]) is None:
            raise RuleViolation(
                f"the tableau was complete after {index} cards, yet card {index + 1} "
                f"({cards[index]}) was dealt in this coup."
            )
    return values


def next_card_to(cards_so_far: Sequence[Card]) -> Side | None:
    """Who receives the next card of the coup, or None when the tableau is complete.

    Cards the tableau could not have dealt (a fifth card after both stood) raise RuleViolation.

    >>> next_card_to(parse_cards("4S 7H 3D 9C"))  # player 7, banker 6: both stand
    >>> next_card_to(parse_cards("4S 7H 2D"))
    <Side.BANKER: 'banker'>
    """
    return _due(_values(cards_so_far))


def _refusal(values: Sequence[int], to: Side) -> str:
    """The sentence explaining why `to` may not receive the next card."""
    count, due = len(values), _due(values)
    if count < 4:
        return f"the next card goes to the {due}: the deal alternates player, banker (art. 7)"
    player, banker = _two_card_totals(values)
    if player >= 8 or banker >= 8:
        sides = ((Side.PLAYER, player), (Side.BANKER, banker))
        naturals = [f"the {side} has a natural {total}" for side, total in sides if total >= 8]
        return " and ".join(naturals) + ": no third card is allowed"
    player_drew = player <= 5
    if to is Side.PLAYER:
        if count >= 5 and player_drew:
            return "the player already has a third card: only one is allowed"
        return f"the player stands on {player}: a third card is not allowed"
    if due is Side.PLAYER:
        return f"the player draws first on {player}: the next card goes to the player"
    if count == 6 or (count == 5 and not player_drew):
        return "the banker already has a third card: only one is allowed"
    if count == 5 and banker != 7:
        return (f"the banker stands on {banker} when the player's third card is worth "
                f"{values[4]}: a third card is not allowed")
    return f"the banker stands on {banker}: a third card is not allowed"


def can_deal(cards_so_far: Sequence[Card], to: Side | str) -> bool:
    """Whether the tableau gives the next card to `to`."""
    return next_card_to(cards_so_far) == _parse(Side, to, "side")


def verify_deal(cards_so_far: Sequence[Card], to: Side | str) -> None:
    """Refuse, with the rule in a sentence, a card the tableau does not give to `to`."""
    side = _parse(Side, to, "side")
    values = _values(cards_so_far)
    if _due(values) is not side:
        raise RuleViolation(_refusal(values, side) + ".")


@dataclass(frozen=True, slots=True)
class Coup:
    """One coup as dealt: the hands, their totals, the winner and the pairs."""

    player_cards: tuple[Card, ...]
    banker_cards: tuple[Card, ...]
    player_total: int
    banker_total: int
    winner: Winner
    player_pair: bool
    banker_pair: bool
    cards_used: int

    def __str__(self) -> str:
        return (f"player {format_cards(self.player_cards)} ({self.player_total}), "
                f"banker {format_cards(self.banker_cards)} ({self.banker_total}): {self.winner}")


def _hand_result(player: tuple[Card, ...], banker: tuple[Card, ...]) -> Coup:
    player_total = sum(card_value(card) for card in player) % 10
    banker_total = sum(card_value(card) for card in banker) % 10
    if player_total == banker_total:  # art. 12
        winner = Winner.TIE
    else:  # art. 11: the higher total wins
        winner = Winner.PLAYER if player_total > banker_total else Winner.BANKER
    return Coup(
        player_cards=player, banker_cards=banker,
        player_total=player_total, banker_total=banker_total, winner=winner,
        player_pair=player[0].rank == player[1].rank,  # art. 13(4): same rank, not value
        banker_pair=banker[0].rank == banker[1].rank,
        cards_used=len(player) + len(banker),
    )


def play_coup(cards: str | Iterable[Card]) -> Coup:
    """Deal a coup from `cards` in shoe order, using the 4 to 6 the tableau needs."""
    shoe = parse_cards(cards) if isinstance(cards, str) else tuple(cards)
    values = [card_value(card) for card in shoe[:6]]
    hands: dict[Side, list[Card]] = {Side.PLAYER: [], Side.BANKER: []}
    used = 0
    while (side := _due(values[:used])) is not None:
        if used == len(shoe):
            raise InvalidInput(
                f"the coup needs card {used + 1} for the {side}, but only {len(shoe)} "
                f"cards were given: give the cards in shoe order, up to six."
            )
        hands[side].append(shoe[used])
        used += 1
    return _hand_result(tuple(hands[Side.PLAYER]), tuple(hands[Side.BANKER]))


