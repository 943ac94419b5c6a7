"""What a simulated round of any game needs from its table, and the steps every game shares.

Each game plays its own round (`ledger.games.<game>.simulation.play_round`) on a table of the
simulated floor (`ledger.simulation.table.TableSimulator`) and says whether the round was
voided. A game names the actions it takes by their wire names (`deal_card`, `decide`); the
table turns each into its signed command, so the games know nothing of commands.
Irregularities happen at the simulator's rate: cards shown by mistake, a misdeal, a shuffler
failure, each recorded and left to the regulation's consequence.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from random import Random
from typing import Any, Protocol

from ledger.core.cards import Card


class Dealing(Protocol):
    """What a round needs from the table it is played at (`TableSimulator` is one)."""

    spec: Any  # the table's TableSpec: code, game, seats, limits, shuffler
    rng: Random
    players: int
    carried: set[int]
    supervisor: Any  # the pit's supervisor (an Actor), who records what a dealer may not
    tie_bets: list[tuple[int, str, Decimal, str | None]]

    @property
    def irregularity_rate(self) -> float:  # money-safe: a probability
        """This round's rate of irregularities (a misdealing dealer's is higher)."""

    def last_jackpot_boxes(self) -> list[int]: ...
    def act(self, action: str, *, actor: Any = None, **fields: Any) -> None:
        """Send the command of wire name `action` (`expose_card`) with these fields, signed by
        `actor` (the dealer when None) at the table's terminal."""
    def draw(self) -> Card: ...
    def bet(self, box: int, spot: str, amount: Decimal | None = None,
            player: str | None = None, covering: int = 1) -> Decimal:
        """Place a bet (a stake drawn for the bettor when `amount` is None, no more than a
        `covering`-th of the chips they have free: a Stud Poker ante keeps its raise back)."""
    def settle(self, settle_turn: Any = None) -> None: ...
    def add_stake(self, box: int, amount: Decimal, player: str | None = None) -> None:
        """More of the bettor's chips on a bet already placed (a raise): the simulator's
        bookkeeping of the players' stacks, no command."""
    def knows_the_cards(self) -> bool:
        """Whether a player knows the next cards this round (a biased table's marked cards)."""
    def peek(self, ahead: int) -> Card:
        """The card `ahead` places after the next one to come, without dealing it."""
    def planted(self) -> Plant | None:
        """The planted bettor at this table this round, if any (`ledger.simulation.bias`)."""
    def shuffler_stops_at(self, cards: int) -> int | None: ...
    def shuffler_failure(self, dealt: int) -> None: ...


@dataclass(frozen=True)
class Plant:
    """A bettor planted for game protection to find, or to leave alone: on `box`, named
    `player`; `knows` whether they see this coup's coming cards; `streak` whether this coup is
    one of their lucky run."""

    kind: str  # informed-bettor or lucky-streak
    box: int
    player: str
    knows: bool
    streak: bool
    rng: Random


JACKPOT_BET = Decimal("100.00")
MARKED_STAKE = 10  # table minimums: what a player who knows the cards puts on them


def deal(sim: Dealing, to: str, face_up: bool = False) -> Card:
    card = sim.draw()
    sim.act("deal_card", table=sim.spec.code, to=to, card=str(card), face_up=face_up)
    return card


def bettor_boxes(sim: Dealing) -> list[int]:
    return sorted(sim.rng.sample(range(1, sim.spec.seats + 1), sim.players))


def turn_of(turn: Any) -> Any:
    from contextlib import nullcontext

    return nullcontext() if turn is None else turn
