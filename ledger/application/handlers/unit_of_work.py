"""What a handler may ask of the ledger: the streams a command reads, nothing else.

A handler is `handler(command, uow) -> aggregates`: it loads the streams the command touches
from its unit of work, each by its kind (`uow.load(Round, round_id, "round 3 of table
BAC-01")` is a `Round`; a stream of another kind is refused in a sentence, `WrongKind`),
checks the command against them, has the aggregates record its events and returns them;
whoever called it saves them (`ledger.application.ledger.Ledger.record` with the command's
receipt, in one insert). `Ledger` is the unit of work on PostgreSQL; the group writer
(`ledger.application.group_commit`), a batch (`ledger.application.batch`), the registry's
proof (`ledger.application.registry_proof`) and the authorship check
(`ledger.audit.verification.log_streams`) are others, and `InMemoryUnitOfWork` runs handlers with no
database at all. Each reads through `ReadsByKind`, so the kind is checked in one place.
"""

from __future__ import annotations

from collections.abc import Callable
from copy import deepcopy
from dataclasses import dataclass
from typing import Any, Protocol, TypeAlias, TypeVar
from uuid import UUID

from ledger.commands.base import Command
from ledger.domain.base import Aggregate, K, of_kind
from ledger.domain.receipt import RULES_EDITION

C = TypeVar("C", bound=Command)
"""The command a handler handles."""


class UnitOfWork(Protocol):
    """The streams as a handler reads them, each by its kind, and the edition of the rules it
    runs under."""

    rules: int
    """`ledger.domain.receipt.RULES_EDITION` when a command is recorded; the edition its
    receipt records when the audit executes it again."""

    def load(self, kind: type[K], aggregate_id: UUID, what: str) -> K:
        """The stream's aggregate: `NotFound` ('`what` does not exist.') when it has no event,
        `WrongKind` when it holds another kind of stream."""
        ...

    def get(self, kind: type[K], aggregate_id: UUID) -> K | None:
        """The stream's aggregate, or None when it has no event; `WrongKind` when it holds
        another kind of stream."""
        ...

    def exists(self, aggregate_id: UUID) -> bool:
        """Whether the stream has an event."""
        ...


class ReadsByKind:
    """`load` and `get` by kind over `found`, the stream's aggregate of whatever kind: the one
    place a unit of work checks what it hands out (`of_kind`)."""

    def found(self, aggregate_id: UUID) -> Aggregate | None:
        """The stream's aggregate as the handler may change it (a copy), or None."""
        raise NotImplementedError

    def load(self, kind: type[K], aggregate_id: UUID, what: str) -> K:
        found = of_kind(kind, self.found(aggregate_id), aggregate_id, what)
        if found is None:
            raise kind.missing(what)
        return found

    def get(self, kind: type[K], aggregate_id: UUID) -> K | None:
        return of_kind(kind, self.found(aggregate_id), aggregate_id)


Handler: TypeAlias = Callable[[C, UnitOfWork], tuple[Aggregate, ...]]
"""A command's handler: `(command, uow)` to the aggregates whose new events record it."""


@dataclass(frozen=True)
class Handles:
    """One line of an area's `HANDLERS` table: a command class and its handler, made by
    `handles`."""

    command: type[Command]
    handler: Handler[Any]


def handles(command: type[C], handler: Handler[C]) -> Handles:
    """`handles(PlaceBet, place_bet)`: the type checker refuses a handler that takes another
    command (the line's type does not name the command, so no annotation around it can widen
    what is checked), and the bus (`ledger.application.bus.registered`) checks the pair again
    when it is built."""
    return Handles(command, handler)


Handlers: TypeAlias = tuple[Handles, ...]
"""An area's table: each command class of the area with its handler."""


class InMemoryUnitOfWork(ReadsByKind):
    """Streams kept in a dict: a handler run on it records nothing anywhere else. Each load is
    a copy, so a refused command leaves the streams as they were."""

    rules = RULES_EDITION

    def __init__(self) -> None:
        self.streams: dict[UUID, Aggregate] = {}

    def found(self, aggregate_id: UUID) -> Aggregate | None:
        found = self.streams.get(aggregate_id)
        return None if found is None else deepcopy(found)

    def exists(self, aggregate_id: UUID) -> bool:
        return aggregate_id in self.streams

    def save(self, *aggregates: Aggregate) -> list[Any]:
        """The aggregates kept as they now stand; returns the events they had pending."""
        events: list[Any] = []
        for aggregate in aggregates:
            events += aggregate.collect_events()
            self.streams[aggregate.id] = aggregate
        return events

    def run(self, handler: Handler[C], command: C) -> list[Any]:
        """The command handled and its aggregates saved; returns the events it recorded."""
        return self.save(*handler(command, self))
