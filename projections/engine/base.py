"""What every projection is: a name, the tables it owns, and one handler per event type.

A projection never reads the event store itself and never commits: the runner
(`projections.engine.runner`) hands it each event with a cursor inside the transaction that also
records the projection's position, so its rows and its position are committed together.

Adding an event type is adding one method:

    @handles(Round.CardDealt)
    def card_dealt(self, event: StoredEvent, cursor: Cursor) -> None:
        cursor.execute(self.sql("UPDATE {table_state} SET ... WHERE stream_id = %s"), ...)

Events of any other type are ignored (the runner still records their position).

A projection may also fold a group of event types set-based, inside PostgreSQL: a method marked
`@folds(Round.BetPlaced, ...)` is called with a range of positions (`cursor, lo, hi`) and
applies the batch's events of those types in it with a few statements over the batch's rows in
the session's temporary table `pg_temp.ledger_projection_batch` (`projections.engine.folding`),
several events of one row folded in position order; other events in the range are not its to
touch. The per-event handlers of the same types stay: they are the reference a fold must equal
(tests compare them row for row, and `ledger verify` rebuilds with them), and the path a batch
falls back to when a fold fails.

A fold is deferred: its events wait, and it is called once at the batch's end (before
`finish`) over all of them, or earlier, over those before it, when an event of a type named in
`until` comes. That is right only for a fold whose rows no other handler of the projection
reads or writes (except the `until` types), and whose effect on its own rows does not depend on
when it runs: appends to one row in position order, sums, the greatest position. The range of
its events is also shown to `staged(method, first, last)`, where the projection may note what
it defers to `finish`.

A handler for
a type that is already in the store, or a change to a table's DDL, takes effect on history
only through a rebuild, which builds the new tables beside the old and swaps them in when
complete: the runner starts one by itself when the live tables' recorded version is not the
code's (bump `version` with a handler's change; a DDL change shows in the version by itself),
and `ledger projections rebuild NAME` starts one by hand.

Table names are written `{name}` in SQL and DDL templates, so the same projection can write
its live tables or, during a rebuild, shadow tables of the same shape (`name__rebuild`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, ClassVar, TypeVar
from uuid import UUID

from psycopg import Connection, Cursor, sql

from ledger.domain.base import DomainEvent, event_types
from ledger.domain.grammar import MONEY_DIGITS, MONEY_PLACES, MONEY_SQL

SHADOW_SUFFIX = "__rebuild"

Handler = Callable[[Any, "StoredEvent", Cursor[Any]], None]
H = TypeVar("H", bound=Handler)
Fold = Callable[[Any, Cursor[Any], int, int], None]
F = TypeVar("F", bound=Fold)


@dataclass(frozen=True)
class StoredEvent:
    """One row of `ledger_events` as a projection sees it.

    `state` is None for event types the projection does not handle: the runner does not
    fetch bodies it would throw away.
    """

    position: int
    stream_id: UUID
    version: int
    event_type: str  # `Table.Opened`: the topic without its module
    state: bytes | None = field(repr=False)

    @cached_property
    def body(self) -> dict[str, Any]:
        body: dict[str, Any] = json.loads(self.state) if self.state is not None else {}
        return body


def literals(*event_classes: type[DomainEvent]) -> str:
    """These events' stored types as SQL string literals for a statement's text:
    `'Round.Settled', 'Round.Voided'`. They are the classes' own names, never input, and each is
    checked to be a plain `Aggregate.Event` that needs no quoting."""
    found = event_types(*event_classes)
    for name in found:
        if not re.fullmatch(r"[A-Za-z]+\.[A-Za-z]+", name):
            raise ValueError(f"{name!r} is not an event type a statement may name")
    return ", ".join(f"'{name}'" for name in found)


def handles(*event_classes: type[DomainEvent]) -> Callable[[H], H]:
    """Mark a method as the handler of these events (`Table.Opened`), named by their classes."""
    handled = event_types(*event_classes)

    def mark(method: H) -> H:
        method._handles = handled  # type: ignore[attr-defined]  # a Callable type declares no attributes
        return method

    return mark


def folds(*event_classes: type[DomainEvent],
          until: tuple[type[DomainEvent], ...] = ()) -> Callable[[F], F]:
    """Mark a method as the set-based fold of these events (`(cursor, lo, hi)`): of all of
    them in the batch at its end, or of those before an event of an `until` class."""
    kinds, waits_for = event_types(*event_classes), event_types(*until)

    def mark(method: F) -> F:
        method._folds = kinds  # type: ignore[attr-defined]  # a Callable type declares no attributes
        method._deferred = waits_for  # type: ignore[attr-defined]  # a Callable type declares no attributes
        return method

    return mark


class Projection:
    """Base of every projection. Subclasses set `name` and `tables` and add handlers."""

    name: ClassVar[str]
    tables: ClassVar[dict[str, str]]
    """Each table the projection owns -> its `CREATE TABLE IF NOT EXISTS {table} ...` DDL."""
    version: ClassVar[int] = 1
    """Bumped when the handlers change what they write; a change to `tables` shows by itself
    (`projections.engine.versions`). Either makes the runner rebuild the projection."""
    handlers: ClassVar[dict[str, str]] = {}
    """Event type -> name of the method handling it; collected from `@handles`."""
    folds: ClassVar[dict[str, str]] = {}
    """Event type -> name of the method folding runs of it set-based; from `@folds`."""
    deferred: ClassVar[dict[str, tuple[str, ...]]] = {}
    """Name of each deferred fold -> the event types that apply it before they are handled."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        found, folded = dict(getattr(cls, "handlers", {})), dict(getattr(cls, "folds", {}))
        deferred = dict(getattr(cls, "deferred", {}))
        for attribute, value in vars(cls).items():
            for event_type in getattr(value, "_handles", ()):
                found[event_type] = attribute
            for event_type in getattr(value, "_folds", ()):
                folded[event_type] = attribute
            if hasattr(value, "_deferred"):
                deferred[attribute] = value._deferred
        cls.handlers, cls.folds, cls.deferred = found, folded, deferred
        unhandled = set(folded) - set(found)
        if unhandled:  # a fold is checked against the handlers: it cannot stand alone
            raise TypeError(f"{cls.__name__} folds {sorted(unhandled)} without a handler")

    def __init__(self, *, shadow: bool = False) -> None:
        self.shadow = shadow
        self._statements: dict[str, sql.SQL] = {}
        self.begin()

    # -- tables -----------------------------------------------------------------------
    def table_name(self, table: str) -> str:
        """The table this instance writes: the live one, or its shadow during a rebuild."""
        return table + SHADOW_SUFFIX if self.shadow else table

    def sql(self, template: str) -> sql.SQL:
        """`template` with every `{table}` it names bound to the tables this instance writes,
        rendered once: an event's statement is not composed again for every event."""
        statement = self._statements.get(template)
        if statement is None:
            names = {table: sql.Identifier(self.table_name(table)) for table in self.tables}
            composed = sql.SQL(template).format(**names)
            statement = sql.SQL(composed.as_string())
            self._statements[template] = statement
        return statement

    def create_tables(self, conn: Connection[Any]) -> None:
        for ddl in self.tables.values():
            conn.execute(self.sql(ddl))
        self.widen_money_columns(conn)

    def widen_money_columns(self, conn: Connection[Any]) -> None:
        """Money columns made by an older version (numeric(14, 2), (16, 2)) take the one money
        type every amount shares (`ledger.domain.grammar.MONEY_SQL`); nothing else changes."""
        narrow = conn.execute(
            "SELECT table_name, column_name FROM information_schema.columns "
            "WHERE table_schema = current_schema() AND table_name = ANY(%s) "
            "AND data_type = 'numeric' AND numeric_scale = %s AND numeric_precision < %s",
            ([self.table_name(t) for t in self.tables], MONEY_PLACES, MONEY_DIGITS),
        ).fetchall()
        for table, column in narrow:
            conn.execute(sql.SQL("ALTER TABLE {} ALTER COLUMN {} TYPE {}").format(
                sql.Identifier(table), sql.Identifier(column), sql.SQL(MONEY_SQL)))

    def drop_tables(self, conn: Connection[Any]) -> None:
        for table in self.tables:
            conn.execute(
                sql.SQL("DROP TABLE IF EXISTS {}").format(sql.Identifier(self.table_name(table)))
            )

    # -- events -----------------------------------------------------------------------
    @classmethod
    def handled_types(cls) -> list[str]:
        return sorted(cls.handlers)

    @classmethod
    def bodies_needed(cls) -> list[str]:
        """The types whose bodies the runner reads into Python: folded ones stay in the
        database."""
        return sorted(set(cls.handlers) - set(cls.folds))

    def begin(self) -> None:
        """A batch starts: what a projection defers to the batch's end is started afresh (a
        failed batch's, rolled back, is forgotten). Every caller of `handle` calls this first
        and `finish` after the batch's last event, in the same transaction."""

    def staged(self, method: str, first: int, last: int) -> None:
        """The batch's events of the fold `method` lie between positions `first` and `last`
        in the batch table (their bodies stay in the database): note what their handlers
        would have deferred to `finish`, to read it there."""

    def finish(self, cursor: Cursor[Any]) -> None:
        """The batch's events are applied: write what was deferred to once per row."""

    def handle(self, event: StoredEvent, cursor: Cursor[Any]) -> bool:
        """Apply one event; False (and nothing written) for a type this projection ignores."""
        method = self.handlers.get(event.event_type)
        if method is None:
            return False
        getattr(self, method)(event, cursor)
        return True
