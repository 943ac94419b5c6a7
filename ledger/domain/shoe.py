"""A shoe: from one shuffle to the next. Every card that leaves it is recorded in order.

When the order is known in advance (an electronic shoe, the simulator), the shuffle records
only a commitment, SHA-256 of the order and a secret, so nobody who reads the ledger can learn
the cards to come; the order and the secret are revealed when the shoe closes, and the ledger
checks both the commitment and every card drawn against them.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from enum import StrEnum
from typing import Any
from uuid import UUID

from eventsourcing.domain import event

from ledger.core.cards import Card, format_cards
from ledger.core.errors import InvalidInput, RuleViolation, WrongState
from ledger.domain.base import Aggregate, CardCode, Provenance, applies


class ShuffleMethod(StrEnum):
    HAND = "hand"
    SHUFFLER = "shuffler"
    AUTOMATIC = "automatic_shuffler_dealer"


def commitment_of(order: list[Card] | tuple[Card, ...], secret: str) -> str:
    """What the shuffle records: SHA-256 over the order (`AS KH ...`), a bar and the secret."""
    return hashlib.sha256(f"{format_cards(order)}|{secret}".encode()).hexdigest()


class Shoe(Aggregate):
    class Shuffled(Aggregate.Created):
        table: str
        game: str
        decks: int
        method: ShuffleMethod
        shuffler_serial: str | None
        commitment: str | None
        by: Provenance

    @event(Shuffled)
    def __init__(self, table: str, game: str, decks: int, method: ShuffleMethod,
                 shuffler_serial: str | None, commitment: str | None, by: Provenance) -> None:
        self.table, self.game, self.decks, self.method = table, game, decks, method
        self.shuffler_serial, self.commitment = shuffler_serial, commitment
        self.position = 0  # the next card's place in the shoe, burns included
        self.drawn: list[tuple[int, Card, UUID | None]] = []
        self.counts: Counter[Card] = Counter()
        self.cut_by: str | None = None
        self.cut_at: int | None = None
        self.burned = 0  # cards burned outside any round (the baccarat shoe start)
        self.cut_card_reached = False
        self.is_closed = False
        self.rounds_dealt: set[UUID] = set()

    @property
    def capacity(self) -> int:
        return 52 * self.decks

    @property
    def cards_remaining(self) -> int:
        return self.capacity - self.position

    # -- checks -----------------------------------------------------------------------
    def check_open(self) -> None:
        if self.is_closed:
            raise WrongState(f"the shoe of table {self.table} is closed: shuffle a new one.")

    def check_can_draw(self, card: Card) -> None:
        self.check_open()
        if self.position >= self.capacity:
            raise RuleViolation(f"the shoe is empty: its {self.capacity} cards are all out.")
        if self.method is not ShuffleMethod.AUTOMATIC and self.counts[card] >= self.decks:
            times = "once" if self.decks == 1 else f"{self.decks} times"
            raise RuleViolation(
                f"{card} cannot come out of this shoe again: with {self.decks} "
                f"deck{'s' if self.decks > 1 else ''} it holds {card} only {times}, "
                "and it is already out."
            )

    # -- events -----------------------------------------------------------------------
    class CutMade(Aggregate.Event):
        cut_by: str
        cut_card_position: int | None
        by: Provenance

    @applies(CutMade)
    def cut(self, cut_by: str, cut_card_position: int | None, by: Provenance) -> None:
        self.cut_by, self.cut_at = cut_by, cut_card_position

    class CardsBurned(Aggregate.Event):
        count: int
        cards: list[CardCode]
        first_position: int
        by: Provenance

    @applies(CardsBurned)
    def burn(self, count: int, cards: list[Any], first_position: int, by: Provenance) -> None:
        self.position += count
        self.burned += count
        for offset, card in enumerate(cards):  # the cards shown are the first ones burned
            self.drawn.append((first_position + offset, card, None))
            self.counts[card] += 1

    class CardDrawn(Aggregate.Event):
        position: int
        card: CardCode
        round_id: UUID | None
        by: Provenance

    @applies(CardDrawn)
    def draw(self, position: int, card: Any, round_id: UUID | None, by: Provenance) -> None:
        self.drawn.append((position, card, round_id))
        self.counts[card] += 1
        self.position = position + 1
        if round_id is not None:
            self.rounds_dealt.add(round_id)
        if self.cut_at is not None and self.position >= self.cut_at:
            self.cut_card_reached = True

    class CutCardReached(Aggregate.Event):
        position: int
        by: Provenance

    @applies(CutCardReached)
    def reach_cut_card(self, position: int, by: Provenance) -> None:
        self.cut_card_reached = True

    class Closed(Aggregate.Event):
        revealed_order: list[CardCode] | None
        secret: str | None
        commitment_holds: bool | None
        mismatches: list[str]
        by: Provenance

    @applies(Closed)
    def close(self, revealed_order: list[Any] | None, secret: str | None,
              commitment_holds: bool | None, mismatches: list[str], by: Provenance) -> None:
        self.is_closed = True

    # -- the reveal ---------------------------------------------------------------------
    def check_reveal(self, order: list[Card] | None, secret: str | None) -> tuple[bool | None, list[str]]:
        """Whether the revealed order matches the commitment, and each card drawn against it."""
        if self.commitment is None:
            if order is not None or secret is not None:
                raise InvalidInput("this shoe recorded no commitment: there is nothing to reveal.")
            return None, []
        if order is None or secret is None:
            raise InvalidInput(
                "this shoe was shuffled with a commitment: closing it reveals the order and the "
                "secret."
            )
        holds = commitment_of(order, secret) == self.commitment
        mismatches = self._order_problems(order) + [
            f"position {position}: drawn {card}, order says "
            f"{order[position] if position < len(order) else 'nothing'}"
            for position, card, _ in self.drawn
            if position >= len(order) or order[position] != card
        ]
        return holds, mismatches

    def _order_problems(self, order: list[Card]) -> list[str]:
        """What makes a revealed order something this shoe could not have held."""
        if self.method is ShuffleMethod.AUTOMATIC:  # cards go back into the machine each coup
            return []
        problems = [] if len(order) == self.capacity else [
            f"the revealed order holds {len(order)} cards, not the shoe's {self.capacity}"
        ]
        counts = Counter(order)
        problems += [f"{card} appears {times} times in the revealed order; the shoe holds it "
                     f"{self.decks} times" for card, times in counts.items() if times != self.decks]
        return problems
