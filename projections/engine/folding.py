"""Applying a batch: runs of folded event types set-based in the database, the rest per event.

A batch's handled events are walked in position order, each through its handler with
statements rendered once (`Projection.sql`); events the projection ignores are passed over.
The events of a fold (`@folds` in `projections.engine.base`, always deferred) are applied together, by
one call of the fold from the first of them to the last, at the batch's end, or, for those
before it, just before an event of a type that waits for them. A fold's statements pick its
events out of the range by type, so a range may hold other events. Everything is sent in the
caller's pipeline and transaction.

The folded events' rows never come to Python: `read_batch` copies them, bodies as `jsonb`, from
the events table into the session's temporary table, which empties itself at each commit, and
hands back each fold's first and last position (`Staged`), not a row an event: on a floor,
where most events are folded, those rows had been most of the client's time.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from psycopg import Connection, Cursor, sql

from ledger.infrastructure.database import EVENTS_TABLE
from projections.engine.base import Projection, StoredEvent

READ_EVENTS = sql.SQL(
    "SELECT notification_id, originator_id, originator_version, event_type, "
    "       CASE WHEN event_type = ANY(%(types)s) THEN state END "
    "  FROM (SELECT notification_id, originator_id, originator_version, state, "
    "               split_part(topic, ':', 2) AS event_type "
    "          FROM {events} WHERE notification_id > %(after)s "
    "         ORDER BY notification_id LIMIT %(limit)s) AS batch "
    " ORDER BY notification_id"
).format(events=sql.Identifier(EVENTS_TABLE))

BATCH_TABLE = "pg_temp.ledger_projection_batch"

CREATE_BATCH_TABLE = """
CREATE TEMP TABLE IF NOT EXISTS ledger_projection_batch (
    position bigint PRIMARY KEY,
    stream_id uuid NOT NULL,
    version bigint NOT NULL,
    event_type text NOT NULL,
    body jsonb NOT NULL  -- parsed once here: a fold may read a body's fields many times
) ON COMMIT DELETE ROWS
"""

# The next events and, in the same statement and scan, the folded ones staged whole: the rows
# are read once and the bodies to fold never leave. Back come the handled events that are not
# folded (with the bodies their handlers read), each fold's first and last staged position (a
# row an event was most of a floor's client time), and, if the projection ignores the batch's
# last event, that event for its position; each row says how many were read in all.
READ_AND_STAGE = sql.SQL(
    "WITH read AS ("
    "    SELECT notification_id, originator_id, originator_version, state, "
    "           split_part(topic, ':', 2) AS event_type "
    "      FROM {events} WHERE notification_id > %(after)s "
    "     ORDER BY notification_id LIMIT %(limit)s"
    "), batch AS ("  # the bodies nobody reads dropped before the rows are kept (and spill)
    "    SELECT notification_id, originator_id, originator_version, event_type, "
    "           CASE WHEN event_type = ANY(%(folded)s) OR event_type = ANY(%(types)s) "
    "                THEN state END AS state "
    "      FROM read"
    "), staged AS ("
    f"    INSERT INTO {BATCH_TABLE} "
    "    SELECT notification_id, originator_id, originator_version, event_type, "
    "           convert_from(state, 'UTF8')::jsonb "
    "      FROM batch WHERE event_type = ANY(%(folded)s)"
    ") "
    "SELECT notification_id, originator_id, originator_version, event_type, "
    "       CASE WHEN event_type = ANY(%(types)s) THEN state END, "
    "       (SELECT count(*) FROM batch), NULL::bigint "
    "  FROM batch "
    " WHERE NOT event_type = ANY(%(folded)s) "
    "   AND (event_type = ANY(%(handled)s) "
    "        OR notification_id = (SELECT max(notification_id) FROM batch)) "
    "UNION ALL "  # each fold's staged events as its first and last position
    "SELECT max(notification_id), NULL, NULL, k.method, NULL, (SELECT count(*) FROM batch), "
    "       min(notification_id) "
    "  FROM batch JOIN unnest(%(folded)s::text[], %(methods)s::text[]) AS k(event_type, method) "
    "    USING (event_type) "
    " GROUP BY k.method "
    " ORDER BY 1"
).format(events=sql.Identifier(EVENTS_TABLE))


class Staged(NamedTuple):
    """A fold's events of the batch, their rows in the batch table: the last one's position
    and the first one's (the events of other folds, or handled, may lie between)."""

    position: int
    first: int
    method: str


Read = StoredEvent | Staged


def read_events(
    conn: Connection[Any], after: int, limit: int, event_types: Sequence[str]
) -> list[StoredEvent]:
    """The next `limit` events after position `after`; bodies only for `event_types`."""
    with conn.cursor(binary=True) as cursor:
        cursor.execute(
            READ_EVENTS, {"after": after, "limit": limit, "types": list(event_types)}
        )
        return [StoredEvent(*row) for row in cursor.fetchall()]


def read_batch(
    conn: Connection[Any], projection: Projection, after: int, limit: int
) -> tuple[list[Read], int]:
    """The next `limit` events after `after` for this projection, in position order, and how
    many were read: the handled events it does not fold, with the bodies its handlers read;
    the events it folds staged in the batch table (one scan, no bodies sent), each fold's as
    one `Staged`; of the others only the last, whose position the projection records."""
    if not projection.folds:
        events: list[Read] = list(read_events(conn, after, limit, projection.bodies_needed()))
        return events, len(events)
    conn.execute(CREATE_BATCH_TABLE)
    folded = sorted(projection.folds)
    with conn.cursor(binary=True) as cursor:
        cursor.execute(READ_AND_STAGE, {
            "after": after, "limit": limit, "folded": folded,
            "methods": [projection.folds[kind] for kind in folded],
            "types": projection.bodies_needed(), "handled": projection.handled_types(),
        })
        rows = cursor.fetchall()
    return [StoredEvent(*row[:5]) if row[6] is None else Staged(row[0], row[6], row[3])
            for row in rows], (rows[0][5] if rows else 0)


def apply_batch(
    conn: Connection[Any], projection: Projection, events: Sequence[Read],
    then: Callable[[Any], None] | None = None, *, fold: bool = True,
) -> None:
    """Every event of the batch applied in position order, in one pipeline; `then(cursor)`
    runs last in it. The events come from `read_batch`, which staged the folded ones; with
    `fold=False` (events from `read_events`) every handled event goes through its handler."""
    folds = projection.folds if fold else {}
    if any(isinstance(event, StoredEvent) and event.event_type in folds for event in events):
        raise ValueError("events to fold must be read with read_batch, which stages them")
    waits = {kind: [method for method, until in projection.deferred.items() if kind in until]
             for kind in {kind for until in projection.deferred.values() for kind in until}}
    projection.begin()
    with conn.pipeline(), conn.cursor() as cursor:
        pending: dict[str, list[int]] = {}  # fold -> the first and last positions not yet folded
        for event in events:
            if isinstance(event, Staged):
                pending[event.method] = [event.first, event.position]
                projection.staged(event.method, event.first, event.position)
        for event in events:
            if isinstance(event, Staged) or event.event_type not in projection.handlers:
                continue  # a fold's, applied below; or ignored
            for waited in waits.get(event.event_type, ()):
                staged = pending.get(waited)
                if staged is not None and staged[0] < event.position:
                    _fold(projection, cursor, (waited, staged[0], event.position - 1))
                    staged[0] = event.position + 1  # what is left of its events, if any
            projection.handle(event, cursor)
        for method, (first, last) in sorted(pending.items(), key=lambda item: item[1][0]):
            if first <= last:
                _fold(projection, cursor, (method, first, last))
        projection.finish(cursor)
        if then is not None:
            then(cursor)


def _fold(projection: Projection, cursor: Cursor[Any], run: tuple[str, int, int]) -> None:
    method, first, last = run
    getattr(projection, method)(cursor, first, last)
