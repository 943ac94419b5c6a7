"""What a simulated round of any game needs from its table, and the steps every game shares.

Each game plays its own round (`ledger.games.<game>.simulation.play_round`) on a
`TableSimulator` and says whether the round was voided.
Irregularities happen at the simulator's rate: cards shown by mistake, a misdeal, a shuffler
failure, each recorded and left to the regulation's consequence.
"""

from __future__ import annotations

from decimal import Decimal
from random import Random
from typing import Any, Protocol

from ledger.cards import Card
from ledger.commands.base import Command
from ledger.commands.round import DealCard
from ledger.domain.base import Actor


class Dealing(Protocol):
    """What a round needs from the table it is played at (`TableSimulator` is one)."""

    spec: Any  # the table's TableSpec: code, game, seats, limits, shuffler
    rng: Random
    players: int
    carried: set[int]
    irregularity_rate: float  # money-safe: a probability
    supervisor: Actor
    tie_bets: list[tuple[int, str, Decimal, str | None]]

    def last_jackpot_boxes(self) -> list[int]: ...
    def send(self, command_class: type[Command], *, actor: Actor | None = None,
             **fields: Any) -> None: ...
    def draw(self) -> Card: ...
    def bet(self, box: int, spot: str, amount: Decimal | None = None,
            player: str | None = None) -> Decimal: ...
    def settle(self, settle_turn: Any = None) -> None: ...
    def buy_in(self, players: int | bool) -> None: ...
    def shuffler_stops_at(self, cards: int) -> int | None: ...
    def shuffler_failure(self, dealt: int) -> None: ...

JACKPOT_BET = "100.00"


def deal(sim: Dealing, to: str, face_up: bool = False) -> Card:
    card = sim.draw()
    sim.send(DealCard, table=sim.spec.code, to=to, card=str(card), face_up=face_up)
    return card


def bettor_boxes(sim: Dealing) -> list[int]:
    return sorted(sim.rng.sample(range(1, sim.spec.seats + 1), sim.players))


def turn_of(turn: Any) -> Any:
    from contextlib import nullcontext

    return nullcontext() if turn is None else turn
