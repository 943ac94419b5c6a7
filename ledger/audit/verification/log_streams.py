"""The streams as the log stood at the point `ledger verify` has reached, and what it carries
over a boundary to the next verification (`ledger.audit.verification.authorship`, `ledger.audit.verification.incremental`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from uuid import UUID

from eventsourcing.persistence import StoredEvent
from psycopg import Connection, sql

from ledger.application.handlers.unit_of_work import InMemoryUnitOfWork
from ledger.audit.verification.comparison import mapper
from ledger.domain.base import Aggregate, of_kind
from ledger.domain.registry import (
    StaffMember,
    TerminalDevice,
    staff_stream_id,
    terminal_stream_id,
)
from ledger.infrastructure.database import EVENTS_TABLE


@dataclass
class Carried:
    """What the check carries over a boundary: every stream a later command may act on, as it
    stood after the last command at or before `after` (settled rounds, closed shoes and
    receipts are left out: a later command that reads one has it read again from the
    database, up to `after`), and what it counted of the pools."""

    after: int
    streams: dict[UUID, Aggregate]
    unproven: dict[UUID, set[int]]
    unbound: int


def carries(aggregate: Aggregate) -> bool:
    """Whether a stream is carried over a boundary: not one that has ended (a settled or void
    round, a closed shoe, shift or gaming day, an investigation note), which only a late
    command reads again; so the carried state stays the size of the floor, not of its
    history."""
    from ledger.domain.gaming_day import GamingDay
    from ledger.domain.investigation import Investigation
    from ledger.domain.round import Phase, Round
    from ledger.domain.shift import Shift
    from ledger.domain.shoe import Shoe

    if isinstance(aggregate, Round):
        return aggregate.phase not in (Phase.SETTLED, Phase.VOID)
    if isinstance(aggregate, Shoe):
        return not aggregate.is_closed
    if isinstance(aggregate, Shift):
        return aggregate.closed_by is None
    if isinstance(aggregate, GamingDay):
        return aggregate.closed is None
    return not isinstance(aggregate, Investigation)


class Streams(InMemoryUnitOfWork):
    """Every stream as the log stood at the point being checked: what a handler loads (a copy,
    so a command refused or recording something else leaves the streams as the log has them)
    and what the door's registry reads."""

    def apply(self, event: Any) -> None:
        if event is None:  # unreadable: named already
            return
        self.streams[event.originator_id] = event.mutate(self.streams.get(event.originator_id))

    def staff(self, staff_id: str) -> StaffMember | None:
        stream = staff_stream_id(staff_id)
        return of_kind(StaffMember, self.streams.get(stream), stream)

    def terminal(self, terminal_id: str) -> TerminalDevice | None:
        stream = terminal_stream_id(terminal_id)
        return of_kind(TerminalDevice, self.streams.get(stream), stream)


class ResumedStreams(Streams):
    """The streams carried over a boundary; any other stream a command reads (a settled round
    adjusted, a closed shoe) is read from the database as it stood at the boundary, once."""

    def __init__(self, conn: Connection[Any], after: int) -> None:
        super().__init__()
        self.conn, self.after = conn, after
        self.absent: set[UUID] = set()

    def _known(self, stream_id: UUID) -> None:
        if stream_id in self.streams or stream_id in self.absent:
            return
        rows = self.conn.execute(
            sql.SQL("SELECT originator_version, topic, state FROM {} WHERE originator_id = %s "
                    "AND notification_id <= %s ORDER BY originator_version"
                    ).format(sql.Identifier(EVENTS_TABLE)), (stream_id, self.after)).fetchall()
        aggregate = None
        for version, topic, state in rows:
            event = mapper.to_domain_event(StoredEvent(stream_id, version, topic, bytes(state)))
            aggregate = event.mutate(aggregate)
        if aggregate is None:
            self.absent.add(stream_id)
        else:
            self.streams[stream_id] = aggregate

    def found(self, aggregate_id: UUID) -> Aggregate | None:
        self._known(aggregate_id)
        return super().found(aggregate_id)

    def exists(self, aggregate_id: UUID) -> bool:
        self._known(aggregate_id)
        return super().exists(aggregate_id)

    def apply(self, event: Any) -> None:
        if event is not None:
            self._known(event.originator_id)
            self.absent.discard(event.originator_id)
        super().apply(event)

    def staff(self, staff_id: str) -> StaffMember | None:
        self._known(staff_stream_id(staff_id))
        return super().staff(staff_id)

    def terminal(self, terminal_id: str) -> TerminalDevice | None:
        self._known(terminal_stream_id(terminal_id))
        return super().terminal(terminal_id)
