"""A dealer's terminal at one table, for the round tests: commands in, recorded facts out."""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

import pytest

from ledger.application.ledger import Ledger, Recorded
from ledger.commands import Command
from ledger.commands.round import DealCard, OpenRound, PlaceBet
from ledger.commands.shoe import BurnCards, CutShoe, ShuffleShoe
from ledger.commands.table import OpenTable, SignInDealer
from ledger.domain.base import Actor, Role
from ledger.domain.round import Round, SettledBet, round_id
from ledger.domain.shoe import Shoe
from ledger.domain.table import Table, table_id
from tests.integration.helpers import DEALER, PIT_BOSS, open_shift
from tests.signing import event_count as table_events

SUPERVISOR = Actor(staff_id="S-201", role=Role.SUPERVISOR)


def event_count(superuser: Any) -> int:
    return table_events(superuser)


def event_bodies(superuser: Any, event_type: str) -> list[dict[str, Any]]:
    """The bodies of every recorded event of one type (`Round.BetSettled`), in order."""
    rows = superuser.execute(
        "SELECT body FROM ledger_event_log WHERE event_type = %s ORDER BY position",
        (event_type,),
    ).fetchall()
    return [row[0] for row in rows]


@dataclass
class Terminal:
    """The dealer terminal of one table: every command names the table, the actor, itself."""

    ledger: Ledger
    table: str
    actor: Actor = DEALER
    name: str = field(default="")

    def send(self, command: type[Command], /, **fields: Any) -> Recorded:
        fields.setdefault("actor", self.actor)
        return self.ledger.execute(
            command(table=self.table, terminal=self.name or f"{self.table}-dealer", **fields)
        )

    def as_supervisor(self) -> Terminal:
        return Terminal(self.ledger, self.table, SUPERVISOR, f"{self.table}-supervisor")

    def bet(self, box: int, spot: str, amount: str, player: str | None = None) -> Recorded:
        return self.send(PlaceBet, box=box, spot=spot, amount=Decimal(amount), player=player)

    def deal(self, *cards: tuple[str, str]) -> None:
        """Cards in the order dealt: ("player", "2S"), ("box:1", "AS"), ("space:3", "8H")."""
        for to, card in cards:
            self.send(DealCard, to=to, card=card)

    # -- reading back what was recorded --------------------------------------------------
    def table_state(self) -> Table:
        return self.ledger.load(Table, table_id(self.table), f"table {self.table}")

    def round(self, number: int | None = None) -> Round:
        number = number or self.table_state().round_count
        rid = round_id(table_id(self.table), number)
        return self.ledger.load(Round, rid, f"round {number} of {self.table}")

    def shoe(self) -> Shoe:
        shoe_id = self.table_state().current_shoe
        assert shoe_id is not None
        return self.ledger.load(Shoe, shoe_id, "the shoe")

    def results(self, number: int | None = None) -> dict[tuple[int, str, str | None], SettledBet]:
        """Each settled bet by (box, spot, player)."""
        return {(r.box, r.spot, r.player): r for r in self.round(number).results}


def refused(terminal: Terminal, superuser: Any, error: type[Exception], sentence: str,
            command: type[Command], /, **fields: Any) -> None:
    """The command is refused with the sentence (a regex) and the ledger holds what it held."""
    before = event_count(superuser)
    with pytest.raises(error, match=sentence):
        terminal.send(command, **fields)
    assert event_count(superuser) == before


def open_table(ledger: Ledger, code: str, game: str, *, shift: bool = True,
               **settings: Any) -> Terminal:
    """The table opened by the pit boss with limits 100-50,000, its shift open (no round
    outside the books; `shift=False` where one is open already) and a dealer signed in."""
    ledger.execute(OpenTable(
        table=code, game=game, min_bet=Decimal("100.00"), max_bet=Decimal("50000.00"),
        settings=settings, actor=PIT_BOSS, terminal="pit-1",
    ))
    if shift:
        ledger.execute(open_shift(code))
    ledger.execute(SignInDealer(table=code, dealer_id=DEALER.staff_id, actor=PIT_BOSS,
                                terminal="pit-1"))
    return Terminal(ledger, code)


def baccarat_table(ledger: Ledger, code: str = "BAC-01", **settings: Any) -> Terminal:
    """An 8-deck baccarat table with its shoe shuffled, cut and burned (art. 2(1))."""
    terminal = open_table(ledger, code, "baccarat", decks=8, **settings)
    terminal.send(ShuffleShoe)
    terminal.send(CutShoe, cut_by="player at box 3", cut_card_position=404)
    terminal.send(BurnCards, count=8)
    return terminal


def q_poker_table(ledger: Ledger, code: str = "QP-01", **settings: Any) -> Terminal:
    """A Q Poker table with a freshly shuffled deck and a round open."""
    terminal = open_table(ledger, code, "q-poker", **settings)
    terminal.send(ShuffleShoe)
    terminal.send(OpenRound)
    return terminal


def fortune8_table(ledger: Ledger, code: str = "F8-01", decks: int = 6) -> Terminal:
    """A Fortune 8 table with its shoe shuffled and cut before the last 12 cards (art. 2(1))."""
    terminal = open_table(ledger, code, "fortune-8", decks=decks)
    terminal.send(ShuffleShoe)
    terminal.send(CutShoe, cut_by="dealer", cut_card_position=52 * decks - 12)
    return terminal
