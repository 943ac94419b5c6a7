"""Cards as values: parsed from and printed as `AS KH TD` (`10` is accepted for `T`), the codes
every machine format keeps; people see each card's face (`face("TS")` is `10♠`, `faces` turns
the codes of a sentence into faces).

Suits rank S > H > C > D wherever a game ranks suits, so `Suit` is ordered that way.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from enum import IntEnum

from ledger.core.errors import InvalidCard

RANK_SYMBOLS = "23456789TJQKA"
SUIT_SYMBOLS = "DCHS"  # low to high: ouros, paus, copas, espadas


class Rank(IntEnum):
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def symbol(self) -> str:
        return RANK_SYMBOLS[self - 2]

    @classmethod
    def parse(cls, text: str) -> Rank:
        symbol = "T" if text == "10" else text.upper()
        if len(symbol) != 1 or symbol not in RANK_SYMBOLS:
            raise InvalidCard(f"'{text}' is not a card rank: use 2-9, T (or 10), J, Q, K or A.")
        return cls(RANK_SYMBOLS.index(symbol) + 2)


class Suit(IntEnum):
    DIAMONDS = 0
    CLUBS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def symbol(self) -> str:
        return SUIT_SYMBOLS[self]

    @classmethod
    def parse(cls, text: str) -> Suit:
        symbol = text.upper()
        if len(symbol) != 1 or symbol not in SUIT_SYMBOLS:
            raise InvalidCard(f"'{text}' is not a card suit: use S, H, C or D.")
        return cls(SUIT_SYMBOLS.index(symbol))


@dataclass(frozen=True, slots=True)
class Card:
    """One playing card. Equal cards are equal values; there is no natural order between cards."""

    rank: Rank
    suit: Suit

    def __str__(self) -> str:
        return self.rank.symbol + self.suit.symbol

    def __repr__(self) -> str:
        return f"Card('{self}')"

    @property
    def index(self) -> int:
        """0..51, rank-major: a compact key for tables and bit masks."""
        return (self.rank - 2) * 4 + self.suit

    @classmethod
    def parse(cls, text: str) -> Card:
        known = _BY_CODE.get(text)  # a card as the ledger writes it: a whole shoe is parsed
        if known is not None:       # when it closes, every card of every stored event loads
            return known
        code = text.strip()
        if len(code) not in (2, 3):
            raise InvalidCard(
                f"'{text}' is not a card: write rank then suit, for example AS, TD or 10H."
            )
        try:
            return cls(Rank.parse(code[:-1]), Suit.parse(code[-1]))
        except InvalidCard as error:
            raise InvalidCard(f"'{text}' is not a card: {error}") from None


def parse_card(text: str) -> Card:
    return Card.parse(text)


def parse_cards(text: str | Iterable[str]) -> tuple[Card, ...]:
    """`parse_cards("AS KH TD")` or `parse_cards(["AS", "KH"])` -> cards in the order given."""
    codes = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return tuple(Card.parse(code) for code in codes)


def format_cards(cards: Iterable[Card]) -> str:
    return " ".join(str(card) for card in cards)


SUIT_FACES = {"S": "♠", "H": "♥", "C": "♣", "D": "♦"}
CARD_CODE = re.compile(r"\b(10|[2-9TJQKA])([SHCD])\b")
"""A card's code inside a sentence: `TS`, `10S`, `KH`."""


def face(code: str | Card) -> str:
    """A card as people see it, on every screen and page: `10♠` for `TS`, `K♥` for `KH`.

    >>> face("TS"), face("KH"), face(Card.parse("2D"))
    ('10♠', 'K♥', '2♦')
    """
    text = str(code)
    rank, suit = text[:-1], text[-1]
    return f"{'10' if rank == 'T' else rank}{SUIT_FACES.get(suit, suit)}"


def faces(text: str) -> str:
    """Every card code of a sentence as its face, the rest as it is.

    >>> faces("dealer straight (KH QC TS): qualifies")
    'dealer straight (K♥ Q♣ 10♠): qualifies'
    """
    return CARD_CODE.sub(lambda found: face(found[1] + found[2]), text)


DECK: tuple[Card, ...] = tuple(Card(rank, suit) for rank in Rank for suit in Suit)
"""The 52 cards of one deck, in `Card.index` order."""
_BY_CODE: dict[str, Card] = {str(card): card for card in DECK}
