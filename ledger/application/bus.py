"""The command bus: each command class to its handler, for the areas a process names.

Every command belongs to one area, and each area's handlers module ends with its table,
`HANDLERS: dict[type[Command], Handler]` (`ledger.application.handlers.tables`, `.shoes`, `.rounds`,
`.jackpots`, `.shift` and `.days`, `.registry`). An `Area` below names the modules of one area;
the composition root (`ledger.runtime.bootstrap.open_ledger`) builds the ledger's `Bus` from the areas
its caller names, importing only their handlers: a CLI sub-app names its own area
(`ledger round ...` the round area), the API, ingest, the demo and the simulation every area.
A command of an area the bus was not built with is refused with `AreaNotLoaded`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ledger.commands.base import Command
from ledger.core.errors import LedgerError

if TYPE_CHECKING:  # a command sent to the API names its area and loads no handler
    from ledger.application.handlers.unit_of_work import Handler, UnitOfWork
    from ledger.domain.base import Aggregate

    HandlerTable = Mapping[type[Command], Handler]


class AreaNotLoaded(LedgerError):
    """A command whose area's handlers the ledger was not built with (a wiring mistake)."""


@dataclass(frozen=True)
class Area:
    """One area of commands: its name and its handler tables, imported when asked for."""

    name: str
    tables: Callable[[], tuple[HandlerTable, ...]]


def _table() -> tuple[HandlerTable, ...]:
    from ledger.application.handlers.tables import HANDLERS

    return (HANDLERS,)


def _shoe() -> tuple[HandlerTable, ...]:
    from ledger.application.handlers.shoes import HANDLERS

    return (HANDLERS,)


def _round() -> tuple[HandlerTable, ...]:
    from ledger.application.handlers.rounds import HANDLERS

    return (HANDLERS,)


def _jackpot() -> tuple[HandlerTable, ...]:
    from ledger.application.handlers.jackpots import HANDLERS

    return (HANDLERS,)


def _shift() -> tuple[HandlerTable, ...]:
    from ledger.application.handlers.days import HANDLERS as DAY_HANDLERS
    from ledger.application.handlers.shift import HANDLERS

    return HANDLERS, DAY_HANDLERS


def _registry() -> tuple[HandlerTable, ...]:
    from ledger.application.handlers.registry import HANDLERS

    return (HANDLERS,)


TABLE = Area("table", _table)
SHOE = Area("shoe", _shoe)
ROUND = Area("round", _round)
JACKPOT = Area("jackpot", _jackpot)
SHIFT = Area("shift", _shift)
REGISTRY = Area("registry", _registry)
EVERY_AREA: tuple[Area, ...] = (TABLE, SHOE, ROUND, JACKPOT, SHIFT, REGISTRY)


class Bus:
    """The handlers of the areas it is built with; built once, then only read (shared by
    every thread of a process)."""

    def __init__(self, areas: Iterable[Area] = ()) -> None:
        self.areas = tuple(areas)
        handlers: dict[type[Command], Handler] = {}
        for area in self.areas:
            for table in area.tables():
                handlers.update(table)
        self._handlers: Mapping[type[Command], Handler] = handlers

    def handler_for(self, command_type: type[Command]) -> Handler:
        handler = self._handlers.get(command_type)
        if handler is None:
            area = command_type.__module__.rpartition(".")[2]
            loaded = ", ".join(area.name for area in self.areas) or "none"
            raise AreaNotLoaded(
                f"{command_type.__name__} is a command of the {area} area, and this ledger was "
                f"opened with the handlers of these areas only: {loaded}; nothing recorded.")
        return handler

    def handle(self, command: Command, uow: UnitOfWork) -> tuple[Aggregate, ...]:
        """The command handled on `uow`: the aggregates to save with its receipt."""
        return self.handler_for(type(command))(command, uow)

    def commands(self) -> tuple[type[Command], ...]:
        return tuple(self._handlers)

