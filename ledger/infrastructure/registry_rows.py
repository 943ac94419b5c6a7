"""The registry's streams as stored, with their positions: what the door's proof of the
registry reads (`ledger.application.registry_proof`). One reader for PostgreSQL, one for the
library's in-memory store (a unit test's ledger)."""

from __future__ import annotations

import json
from typing import Any, NamedTuple, Protocol
from uuid import UUID

from eventsourcing.utils import get_topic
from psycopg import sql
from psycopg.rows import tuple_row

from ledger.domain.receipt import CommandReceipt
from ledger.infrastructure.database import EVENTS_TABLE

RECEIPT_TOPIC = get_topic(CommandReceipt.Accepted)


class StoredRow(NamedTuple):
    """One stored event of a stream: where the log holds it, and what it says."""

    position: int
    version: int
    topic: str
    state: bytes


class StreamRows(Protocol):
    def stream(self, stream_id: UUID) -> tuple[list[StoredRow], int]:
        """The stream's events in version order, and the log's last position when read."""
        ...

    def receipt_between(self, after: int, before: int) -> bool:
        """Whether a command's receipt lies strictly between the two positions."""
        ...

    def first_bound(self) -> int | None:
        """The position of the first receipt whose envelope names its ledger (`bound_from`)."""
        ...


FIRST_BOUND = sql.SQL(
    "SELECT notification_id FROM {events} WHERE topic = %s AND "
    "convert_from(state, 'UTF8')::jsonb -> 'signed' ->> 'ledger' IS NOT NULL "
    "ORDER BY notification_id LIMIT 1").format(events=sql.Identifier(EVENTS_TABLE))


def bound_from(conn: Any) -> int | None:
    """The position of the first receipt whose signed envelope names its ledger: the door has
    refused an envelope naming none since, so none after it was recorded through the door
    (read from the start, it stops at the first such receipt, on a ledger of today its first)."""
    with conn.cursor(row_factory=tuple_row) as cursor:
        row = cursor.execute(FIRST_BOUND, (RECEIPT_TOPIC,)).fetchone()
    return int(row[0]) if row else None


class DatabaseRows:
    """Read from the event table (two short statements a stream)."""

    def __init__(self, datastore: Any) -> None:
        self.datastore = datastore
        self._bound: int | None = None
        names = {"events": sql.Identifier(EVENTS_TABLE)}
        self._stream = sql.SQL(
            "SELECT notification_id, originator_version, topic, state FROM {events} "
            "WHERE originator_id = %s ORDER BY originator_version").format(**names)
        self._last = sql.SQL("SELECT max(notification_id) FROM {events}").format(**names)
        self._between = sql.SQL(
            "SELECT 1 FROM {events} WHERE notification_id > %s AND notification_id < %s "
            "AND topic = %s LIMIT 1").format(**names)

    def stream(self, stream_id: UUID) -> tuple[list[StoredRow], int]:
        with self.datastore.get_connection() as conn, conn.cursor(row_factory=tuple_row) as cur:
            last = cur.execute(self._last).fetchone()
            rows = cur.execute(self._stream, (stream_id,)).fetchall()
        return ([StoredRow(p, v, t, bytes(s)) for p, v, t, s in rows],
                (last[0] if last else None) or 0)

    def first_bound(self) -> int | None:
        if self._bound is None:  # once found, it never moves: positions are append-only
            with self.datastore.get_connection() as conn:
                self._bound = bound_from(conn)
        return self._bound

    def receipt_between(self, after: int, before: int) -> bool:
        if before - after <= 1:
            return False
        with self.datastore.get_connection() as conn, conn.cursor(row_factory=tuple_row) as cur:
            return cur.execute(self._between, (after, before, RECEIPT_TOPIC)).fetchone() \
                is not None


class MemoryRows:
    """Read from the library's in-memory recorder, whose position is an event's place in its
    list (from 1)."""

    def __init__(self, recorder: Any) -> None:
        self.recorder = recorder

    def stream(self, stream_id: UUID) -> tuple[list[StoredRow], int]:
        stored = self.recorder._stored_events  # the in-memory store's own list
        index = self.recorder._stored_events_index.get(str(stream_id), {})
        rows = [StoredRow(at + 1, version, stored[at].topic, stored[at].state)
                for version, at in sorted(index.items())]
        return rows, len(stored)

    def first_bound(self) -> int | None:
        stored = self.recorder._stored_events
        return next((at + 1 for at, s in enumerate(stored) if s.topic == RECEIPT_TOPIC
                     and json.loads(s.state).get("signed", {}).get("ledger") is not None), None)

    def receipt_between(self, after: int, before: int) -> bool:
        stored = self.recorder._stored_events
        return any(s.topic == RECEIPT_TOPIC for s in stored[after:max(before - 1, after)])


def rows_of(app: Any) -> StreamRows:
    """The reader for an application's store."""
    datastore = getattr(app.factory, "datastore", None)
    return DatabaseRows(datastore) if datastore is not None else MemoryRows(app.recorder)
