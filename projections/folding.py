"""Applying a batch: runs of folded event types set-based in the database, the rest per event.

A batch's events are walked in position order. Events the projection ignores are passed over;
consecutive events of one fold group (`@folds` in `projections.base`) make a run, applied by
one call of the fold with the run's first and last positions; any other handled event goes to
its handler, with statements rendered once (`Projection.sql`). A run ends where an event of
another group or a handled one comes, so the effects land in position order, as the handlers
would leave them. The events of a deferred fold are passed over and applied together at the
batch's end, or before the first event of a type that waits for them, by one call from the
first of them to the last. Everything is sent in the caller's pipeline and transaction.

The folded events' rows never come to Python: `read_batch` copies them, bodies as `json`, from
the events table into the session's temporary table, which empties itself at each commit, and
hands back only their positions and types (`Staged`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from psycopg import Connection, Cursor, sql

from ledger.infrastructure.database import EVENTS_TABLE
from projections.base import Projection, StoredEvent

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
    body json NOT NULL  -- validated, not converted: most staged bodies are never opened
) ON COMMIT DELETE ROWS
"""

# The next events and, in the same statement and scan, the folded ones staged whole: the rows
# are read once, the bodies to fold never leave, and of the events the projection ignores only
# the batch's last comes back (for its position), with how many were read in all.
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
    "           convert_from(state, 'UTF8')::json "
    "      FROM batch WHERE event_type = ANY(%(folded)s)"
    ") "
    "SELECT notification_id, originator_id, originator_version, event_type, "
    "       CASE WHEN event_type = ANY(%(types)s) THEN state END, "
    "       (SELECT count(*) FROM batch) "
    "  FROM batch "
    " WHERE event_type = ANY(%(handled)s) "
    "    OR notification_id = (SELECT max(notification_id) FROM batch) "
    " ORDER BY notification_id"
).format(events=sql.Identifier(EVENTS_TABLE))


class Staged(NamedTuple):
    """An event whose row stays in the batch table for its fold: where it is, its stream and
    its type."""

    position: int
    stream_id: Any
    event_type: str


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
    """The next `limit` events after `after` for this projection, and how many were read:
    the bodies its handlers read, the events it folds staged in the batch table (one scan, no
    bodies sent); of the others only the last, whose position the projection records."""
    if not projection.folds:
        events: list[Read] = list(read_events(conn, after, limit, projection.bodies_needed()))
        return events, len(events)
    conn.execute(CREATE_BATCH_TABLE)
    with conn.cursor(binary=True) as cursor:
        cursor.execute(READ_AND_STAGE, {
            "after": after, "limit": limit, "folded": sorted(projection.folds),
            "types": projection.bodies_needed(), "handled": projection.handled_types(),
        })
        rows = cursor.fetchall()
    folds = projection.folds
    return [Staged(row[0], row[1], row[3]) if row[3] in folds else StoredEvent(*row[:5])
            for row in rows], (rows[0][5] if rows else 0)


def apply_batch(
    conn: Connection[Any], projection: Projection, events: Sequence[Read],
    then: Callable[[Any], None] | None = None, *, fold: bool = True,
) -> None:
    """Every event of the batch applied in position order, in one pipeline; `then(cursor)`
    runs last in it. The events come from `read_batch`, which staged the folded ones; with
    `fold=False` (events from `read_events`) every handled event goes through its handler."""
    folds = projection.folds if fold else {}
    if any(event.event_type in folds and not isinstance(event, Staged) for event in events):
        raise ValueError("events to fold must be read with read_batch, which stages them")
    deferred = projection.deferred if fold else {}
    waits = {kind: [method for method, until in deferred.items() if kind in until]
             for kind in {kind for until in deferred.values() for kind in until}}
    projection.begin()
    with conn.pipeline(), conn.cursor() as cursor:
        run: tuple[str, int, int] | None = None  # (fold method, first, last position)
        pending: dict[str, tuple[str, int, int]] = {}  # deferred method -> its run so far
        for event in events:
            method = folds.get(event.event_type)
            if method is None and event.event_type not in projection.handlers:
                continue  # ignored: does not break a run
            if method in deferred:
                first = pending[method][1] if method in pending else event.position
                pending[method] = (method, first, event.position)
                projection.staged(event.position, event.stream_id, event.event_type)
                continue
            if run is not None and method != run[0]:
                _fold(projection, cursor, run)
                run = None
            for waited in waits.get(event.event_type, ()):
                if waited in pending:
                    _fold(projection, cursor, pending.pop(waited))
            if method is None:
                assert isinstance(event, StoredEvent), "a staged event has no handler here"
                projection.handle(event, cursor)
            elif run is None:
                run = (method, event.position, event.position)
            else:
                run = (method, run[1], event.position)
        if run is not None:
            _fold(projection, cursor, run)
        for waiting in sorted(pending.values(), key=lambda run: run[1]):
            _fold(projection, cursor, waiting)
        projection.finish(cursor)
        if then is not None:
            then(cursor)


def _fold(projection: Projection, cursor: Cursor[Any], run: tuple[str, int, int]) -> None:
    method, first, last = run
    getattr(projection, method)(cursor, first, last)
