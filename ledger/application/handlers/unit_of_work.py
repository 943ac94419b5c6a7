"""What a handler may ask of the ledger: the streams a command reads, nothing else.

A handler is `handler(command, uow) -> aggregates`: it loads the streams the command touches
from its unit of work, checks the command against them, has the aggregates record its events
and returns them; whoever called it saves them (`ledger.application.ledger.Ledger.record` with the
command's receipt, in one insert). `Ledger` is the unit of work on PostgreSQL; the group
writer (`ledger.application.group_commit`), a batch (`ledger.application.batch`) and the authorship check
(`ledger.audit.authorship`) are others, and `InMemoryUnitOfWork` runs handlers with no
database at all.
"""

from __future__ import annotations

from collections.abc import Callable
from copy import deepcopy
from typing import Any, Protocol
from uuid import UUID

from ledger.core.errors import NotFound
from ledger.domain.base import Aggregate
from ledger.domain.receipt import RULES_EDITION


class UnitOfWork(Protocol):
    """The streams as a handler reads them, and the edition of the rules it runs under."""

    rules: int
    """`ledger.domain.receipt.RULES_EDITION` when a command is recorded; the edition its
    receipt records when the audit executes it again."""

    def load(self, aggregate_id: UUID, what: str) -> Any:
        """The stream's aggregate; `NotFound` ('`what` does not exist.') when it has no
        event."""
        ...

    def get(self, aggregate_id: UUID) -> Any | None:
        """The stream's aggregate, or None when it has no event."""
        ...

    def exists(self, aggregate_id: UUID) -> bool:
        """Whether the stream has an event."""
        ...


Handler = Callable[[Any, UnitOfWork], tuple[Aggregate, ...]]
"""A command's handler: `(command, uow)` to the aggregates whose new events record it (the
command's own class in place of `Any`: each area's `HANDLERS` table pairs them)."""


class InMemoryUnitOfWork:
    """Streams kept in a dict: a handler run on it records nothing anywhere else. Each load is
    a copy, so a refused command leaves the streams as they were."""

    rules = RULES_EDITION

    def __init__(self) -> None:
        self.streams: dict[UUID, Aggregate] = {}

    def load(self, aggregate_id: UUID, what: str) -> Any:
        found = self.get(aggregate_id)
        if found is None:
            raise NotFound(f"{what} does not exist.")
        return found

    def get(self, aggregate_id: UUID) -> Any | None:
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

    def run(self, handler: Handler, command: Any) -> list[Any]:
        """The command handled and its aggregates saved; returns the events it recorded."""
        return self.save(*handler(command, self))
