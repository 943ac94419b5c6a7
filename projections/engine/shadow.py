"""A projection built again from the first event in shadow tables, beside its live tables, and
swapped in when caught up: what `ledger projections rebuild` does by hand and the runner does by
itself for a projection whose live tables another version built (`projections.engine.versions`).

Writers never stop and readers never see a half-built model:

1. the shadow tables (`table_state__rebuild`) are created empty, and filled from position 0
   a batch a transaction while writers go on recording;
2. the swap is one transaction: lock the projection's tracking row (waiting for a live batch
   in flight, holding off the next), apply to the shadow the events recorded meanwhile, drop
   the live tables, rename the shadow tables (and their indexes) to the live names, and set the
   tracking position to the shadow's and the version to the code's. Until it commits, readers
   see the old tables; after it, the new ones, complete, and a runner carries on from there.

A build that dies before the swap leaves only its shadow tables, which the next one drops. One
session at a time builds a projection: it holds the session advisory lock `claim` takes (so a
person's rebuild and a runner's, or two runners', never both build), released when it swaps or
its connection ends.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from psycopg import Connection, sql

from projections.engine.base import Projection
from projections.engine.folding import apply_batch, read_batch
from projections.engine.tracking import lock_position
from projections.engine.versions import REBUILD_LOCK, Version, code_version, record


def claim(conn: Connection[Any], name: str) -> bool:
    """Take the projection's rebuild lock for this session; False if another session holds it."""
    row = conn.execute("SELECT pg_try_advisory_lock(hashtext(%s || %s))",
                       (REBUILD_LOCK, name)).fetchone()
    return bool(row and row[0])


def release(conn: Connection[Any], name: str) -> None:
    conn.execute("SELECT pg_advisory_unlock(hashtext(%s || %s))", (REBUILD_LOCK, name))


@dataclass
class ShadowBuild:
    """One projection's build in its shadow tables, by the session that claimed it."""

    shadow: Projection
    events: int = 0  # read into the shadow so far
    position: int = 0  # the last position applied to the shadow

    @classmethod
    def start(cls, conn: Connection[Any], projection: type[Projection]) -> ShadowBuild:
        """Empty shadow tables (a dead build's dropped first); the caller holds the claim."""
        shadow = projection(shadow=True)
        with conn.transaction():
            shadow.drop_tables(conn)
            shadow.create_tables(conn)
        return cls(shadow)

    @property
    def version(self) -> Version:
        return code_version(type(self.shadow))

    def step(self, conn: Connection[Any], limit: int) -> int:
        """The next batch into the shadow tables, in its own transaction; events read."""
        with conn.transaction():
            read = self._apply_next(conn, limit)
        return read

    def swap_in(self, conn: Connection[Any], limit: int) -> int:
        """Apply what was recorded meanwhile and swap the shadow in, in one transaction that
        holds the tracking row; the position it is swapped in at."""
        name = self.shadow.name
        with conn.transaction():
            lock_position(conn, name)
            while self._apply_next(conn, limit):
                pass
            self._swap(conn)
            conn.execute("UPDATE ledger_tracking SET position = %s, updated_at = now(), "
                         "stalled = NULL WHERE projection = %s", (self.position, name))
            record(conn, name, self.version)
        return self.position

    def _apply_next(self, conn: Connection[Any], limit: int) -> int:
        events, read = read_batch(conn, self.shadow, self.position, limit)
        if not events:
            return 0
        apply_batch(conn, self.shadow, events)
        self.events += read
        self.position = events[-1].position
        return read

    def _swap(self, conn: Connection[Any]) -> None:
        """Replace each live table by its shadow, indexes renamed to the live table's names."""
        for table in self.shadow.tables:
            built = self.shadow.table_name(table)
            conn.execute(sql.SQL("DROP TABLE IF EXISTS {}").format(sql.Identifier(table)))
            conn.execute(sql.SQL("ALTER TABLE {} RENAME TO {}").format(
                sql.Identifier(built), sql.Identifier(table)))
            indexes = conn.execute(
                "SELECT indexname FROM pg_indexes "
                "WHERE schemaname = current_schema() AND tablename = %s", (table,)).fetchall()
            for (index,) in indexes:
                if index.startswith(built):
                    conn.execute(sql.SQL("ALTER INDEX {} RENAME TO {}").format(
                        sql.Identifier(index), sql.Identifier(table + index[len(built):])))
