"""A floor in memory: commands admitted as the door would, handled through the bus on an
in-memory unit of work (`ledger.application.handlers.unit_of_work.InMemoryUnitOfWork`), no database."""

from __future__ import annotations

from datetime import UTC, date, datetime
from decimal import Decimal
from typing import Any, TypeVar

import pytest

from ledger.application.bus import EVERY_AREA, Bus
from ledger.application.handlers.unit_of_work import InMemoryUnitOfWork
from ledger.commands.base import Command
from ledger.commands.jackpot import CreatePool, LinkTable
from ledger.commands.round import OpenRound
from ledger.commands.shift import OpenShift
from ledger.commands.shoe import BurnCards, CutShoe, ShuffleShoe
from ledger.commands.table import OpenTable, SignInDealer
from ledger.domain.base import Actor, Role

C = TypeVar("C", bound=Command)

PIT_BOSS = Actor(staff_id="PB-7", role=Role.PIT_BOSS)
SUPERVISOR = Actor(staff_id="S-201", role=Role.SUPERVISOR)
DEALER = Actor(staff_id="D-101", role=Role.DEALER)
ADMINISTRATOR = Actor(staff_id="A-1", role=Role.ADMINISTRATOR)
AT = datetime(2026, 11, 22, 4, 0, tzinfo=UTC)  # noon in Macau
DAY = date(2026, 11, 22)
CHIPS = {Decimal(5000): 20, Decimal(1000): 80, Decimal(100): 150}
KEY = "A" * 43 + "="
POOL_SETTINGS: dict[str, bool | int | str] = {"seed": "100000", "royal_flush": "100000", "straight_flush": "10000",
                 "four_of_a_kind": "5000", "full_house": "1000", "flush": "500",
                 "contribution_rate": "0.25", "reserve_rate": "0.05"}


def admitted(command: C, actor: Actor = PIT_BOSS) -> C:
    """The command as the door hands it on: its actor and terminal verified, at `AT`."""
    return command.model_copy(update={"actor": actor, "terminal": "T-1", "at": AT})


class Floor:
    """Every area's handlers on streams kept in memory."""

    def __init__(self) -> None:
        self.uow = InMemoryUnitOfWork()
        self.bus = Bus(EVERY_AREA)

    def do(self, command: Command, actor: Actor = PIT_BOSS) -> list[Any]:
        return self.uow.run(self.bus.handler_for(type(command)), admitted(command, actor))

    def refuses(self, command: Command, error: type[Exception], *named: str,
                actor: Actor = PIT_BOSS) -> str:
        """The command is refused with `error`, whose sentence names each of `named`, and
        every stream is as it was."""
        before = {stream: aggregate.version for stream, aggregate in self.uow.streams.items()}
        with pytest.raises(error) as refusal:
            self.do(command, actor)
        said = str(refusal.value)
        for name in named:
            assert name in said, said
        assert {stream: aggregate.version
                for stream, aggregate in self.uow.streams.items()} == before
        return said

    # -- a table as the pit sets it up -----------------------------------------------------
    def table(self, code: str = "BAC-01", game: str = "baccarat", *, shift: bool = True,
              dealer: bool = True, **settings: Any) -> None:
        self.do(OpenTable(table=code, game=game, min_bet=Decimal("100.00"),
                          max_bet=Decimal("50000.00"), settings=settings))
        if shift:
            self.do(OpenShift(table=code, gaming_day=DAY, shift="day", chips=CHIPS,
                              dealer_id=DEALER.staff_id, supervisor=PIT_BOSS))
        if dealer:
            self.do(SignInDealer(table=code, dealer_id=DEALER.staff_id))

    def baccarat(self, code: str = "BAC-01", *, round_: bool = True, **settings: Any) -> None:
        """An 8-deck baccarat table, its shoe shuffled, cut and burned, a round open."""
        self.table(code, "baccarat", decks=8, **settings)
        self.do(ShuffleShoe(table=code), DEALER)
        self.do(CutShoe(table=code, cut_by="player at box 3", cut_card_position=404), DEALER)
        self.do(BurnCards(table=code, count=8), DEALER)
        if round_:
            self.do(OpenRound(table=code), DEALER)

    def stud(self, code: str = "STUD-01", *, pool: str | None = None) -> None:
        """A Stud Poker table with a freshly shuffled deck (linked to `pool`, made first)."""
        self.table(code, "stud-poker")
        if pool is not None:
            self.do(CreatePool(pool=pool, settings=POOL_SETTINGS))
            self.do(LinkTable(pool=pool, table=code))
        self.do(ShuffleShoe(table=code), DEALER)
