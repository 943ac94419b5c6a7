"""The command bus: each command class to its handler, for the areas a process names.

Every command belongs to one area, and each area's handlers module ends with its table,
`HANDLERS: Handlers`, a line `handles(PlaceBet, place_bet)` for each command class
(`ledger.application.handlers.tables`, `.shoes`, `.rounds`, `.jackpots`, `.shift` and `.days`,
`.registry`): the type checker refuses a handler that takes another command, and the bus
checks each pair again when it is built (`registered`). An `Area` below names the modules of
one area; the composition root (`ledger.runtime.bootstrap.open_ledger`) builds the ledger's
`Bus` from the areas its caller names, importing only their handlers: a CLI sub-app names its
own area (`ledger round ...` the round area), the API, ingest, the demo and the simulation
every area. A command of an area the bus was not built with is refused with `AreaNotLoaded`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from inspect import signature
from types import UnionType
from typing import TYPE_CHECKING, Any, get_args, get_type_hints

from ledger.commands.base import Command
from ledger.core.errors import LedgerError

if TYPE_CHECKING:  # a command sent to the API names its area and loads no handler
    from ledger.application.handlers.unit_of_work import Handler, Handlers, UnitOfWork
    from ledger.domain.base import Aggregate


class AreaNotLoaded(LedgerError):
    """A command whose area's handlers the ledger was not built with (a wiring mistake)."""


class HandlerMismatch(LedgerError):
    """A handler registered under a command class it does not take, or a command class
    registered twice (a wiring mistake, found when the bus is built)."""


def registered(*tables: Handlers) -> dict[type[Command], Handler[Any]]:
    """Each command class of the tables to its handler, every pair checked: the handler's
    command parameter is annotated with that class or one above it, and no class is handled
    twice."""
    handlers: dict[type[Command], Handler[Any]] = {}
    for table in tables:
        for line in table:
            name = getattr(line.handler, "__qualname__", repr(line.handler))
            taken = _taken(line.handler)
            if not any(issubclass(line.command, kind) for kind in taken):
                said = " or ".join(kind.__name__ for kind in taken) or "no command class"
                raise HandlerMismatch(
                    f"{name} is registered to handle {line.command.__name__}, but it takes "
                    f"{said}: pair each command class with its own handler.")
            if line.command in handlers:
                raise HandlerMismatch(f"{line.command.__name__} is registered twice, the second "
                                      f"time to {name}: one handler a command class.")
            handlers[line.command] = line.handler
    return handlers


@cache
def _taken(handler: Callable[..., Any]) -> tuple[type, ...]:
    """The command classes a handler's first parameter is annotated with."""
    first = next(iter(signature(handler).parameters))
    annotation = get_type_hints(handler).get(first)
    kinds = get_args(annotation) if isinstance(annotation, UnionType) else (annotation,)
    return tuple(kind for kind in kinds if isinstance(kind, type))


@dataclass(frozen=True)
class Area:
    """One area of commands: its name and its handler tables, imported when asked for."""

    name: str
    tables: Callable[[], tuple[Handlers, ...]]


def _table() -> tuple[Handlers, ...]:
    from ledger.application.handlers.tables import HANDLERS

    return (HANDLERS,)


def _shoe() -> tuple[Handlers, ...]:
    from ledger.application.handlers.shoes import HANDLERS

    return (HANDLERS,)


def _round() -> tuple[Handlers, ...]:
    from ledger.application.handlers.rounds import HANDLERS

    return (HANDLERS,)


def _jackpot() -> tuple[Handlers, ...]:
    from ledger.application.handlers.jackpots import HANDLERS

    return (HANDLERS,)


def _shift() -> tuple[Handlers, ...]:
    from ledger.application.handlers.days import HANDLERS as DAY_HANDLERS
    from ledger.application.handlers.shift import HANDLERS

    return HANDLERS, DAY_HANDLERS


def _registry() -> tuple[Handlers, ...]:
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
        tables = [table for area in self.areas for table in area.tables()]
        self._handlers: Mapping[type[Command], Handler[Any]] = registered(*tables)

    def handler_for(self, command_type: type[Command]) -> Handler[Any]:
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

