"""Rebuild a projection from the first event, beside the live one, and swap it in when complete.

Writers never stop and readers never see a half-built model:

1. the shadow tables (`table_state__rebuild`) are created empty, and filled from position 0
   in batches while writers go on recording and the live runner goes on following;
2. the swap is one transaction: lock the projection's tracking row (waiting for a live batch
   in flight, holding off the next), apply to the shadow the events recorded meanwhile, drop
   the live tables, rename the shadow tables (and their indexes) to the live names, and set the
   tracking position to the shadow's. Until it commits, readers see the old tables; after it,
   the new ones, complete, and a live runner carries on from the new position.

A rebuild that dies before the swap leaves only its shadow tables, which the next rebuild
drops. Two rebuilds of the same projection at once are refused (a session advisory lock).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from psycopg import Connection, sql

from ledger.core.errors import WrongState
from ledger.infrastructure.database import Database
from projections.base import Projection
from projections.folding import apply_batch, read_batch
from projections.runner import (
    DEFAULT_BATCH_SIZE,
    ensure_tracked,
    head,
    lock_position,
    session,
)

OnProgress = Callable[[int, int], None]
"""Called after each shadow batch with (position reached, last position in the store)."""


@dataclass(frozen=True)
class Rebuilt:
    projection: str
    events: int
    position: int


def rebuild(
    database: Database,
    projection_class: type[Projection],
    *,
    batch_size: int = DEFAULT_BATCH_SIZE,
    on_progress: OnProgress | None = None,
) -> Rebuilt:
    """Rebuild one projection from the first event and swap the result in."""
    shadow = projection_class(shadow=True)
    with database.connect(long=True) as conn:
        session(conn, "ledger projections rebuild")
        _claim(conn, shadow.name)
        ensure_tracked(conn, projection_class())
        with conn.transaction():
            shadow.drop_tables(conn)
            shadow.create_tables(conn)
        events, position = _fill(conn, shadow, batch_size, on_progress)
        with conn.transaction():
            lock_position(conn, shadow.name)
            tail, position = _apply_all(conn, shadow, position, batch_size)
            _swap(conn, shadow)
            conn.execute(
                "UPDATE ledger_tracking SET position = %s, updated_at = now() "
                "WHERE projection = %s",
                (position, shadow.name),
            )
    return Rebuilt(shadow.name, events + tail, position)


def _fill(
    conn: Connection[Any], shadow: Projection, batch_size: int, on_progress: OnProgress | None
) -> tuple[int, int]:
    """Every event so far into the shadow tables, one transaction per batch."""
    events, position = 0, 0
    while True:
        with conn.transaction():
            events_read, position = _apply_next(conn, shadow, position, batch_size)
        if not events_read:
            return events, position
        events += events_read
        if on_progress is not None:
            on_progress(position, head(conn))


def _apply_all(
    conn: Connection[Any], shadow: Projection, position: int, batch_size: int
) -> tuple[int, int]:
    """The events recorded since `position`, inside the caller's transaction."""
    events = 0
    while True:
        events_read, position = _apply_next(conn, shadow, position, batch_size)
        if not events_read:
            return events, position
        events += events_read


def _apply_next(
    conn: Connection[Any], shadow: Projection, after: int, limit: int
) -> tuple[int, int]:
    events, read = read_batch(conn, shadow, after, limit)
    if not events:
        return 0, after
    apply_batch(conn, shadow, events)
    return read, events[-1].position


def _claim(conn: Connection[Any], name: str) -> None:
    row = conn.execute(
        "SELECT pg_try_advisory_lock(hashtext('ledger projection rebuild ' || %s))", (name,)
    ).fetchone()
    if not row or not row[0]:
        raise WrongState(f"a rebuild of {name.replace('_', '-')} is already running: let it "
                         "finish first.")


def _swap(conn: Connection[Any], shadow: Projection) -> None:
    """Replace each live table by its shadow, indexes renamed to the live table's names."""
    for table in shadow.tables:
        built = shadow.table_name(table)
        conn.execute(sql.SQL("DROP TABLE IF EXISTS {}").format(sql.Identifier(table)))
        conn.execute(
            sql.SQL("ALTER TABLE {} RENAME TO {}").format(
                sql.Identifier(built), sql.Identifier(table)
            )
        )
        indexes = conn.execute(
            "SELECT indexname FROM pg_indexes "
            "WHERE schemaname = current_schema() AND tablename = %s",
            (table,),
        ).fetchall()
        for (index,) in indexes:
            if index.startswith(built):
                conn.execute(
                    sql.SQL("ALTER INDEX {} RENAME TO {}").format(
                        sql.Identifier(index), sql.Identifier(table + index[len(built):])
                    )
                )
