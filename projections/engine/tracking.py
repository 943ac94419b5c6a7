"""Where each projection has got to in the event log.

A projection writes its rows and its position here in the same transaction, so after a crash
it resumes exactly after the last event whose effects were committed.
"""

from __future__ import annotations

from typing import Any

from psycopg import Connection

TRACKING_DDL = """
CREATE TABLE IF NOT EXISTS ledger_tracking (
    projection text PRIMARY KEY,
    position bigint NOT NULL DEFAULT 0,
    updated_at timestamptz NOT NULL DEFAULT now(),
    stalled text
)
"""
STALLED_COLUMN = "ALTER TABLE ledger_tracking ADD COLUMN IF NOT EXISTS stalled text"
"""Why the projection stopped (the event it could not apply), until it moves past it."""


VERSION_COLUMN = "ALTER TABLE ledger_tracking ADD COLUMN IF NOT EXISTS version text"
"""Which version of the projection's code built its live tables (`projections.engine.versions`)."""


def create_tracking_table(conn: Connection[Any]) -> None:
    conn.execute(TRACKING_DDL)
    conn.execute(STALLED_COLUMN)
    conn.execute(VERSION_COLUMN)


def lock_position(conn: Connection[Any], name: str) -> int:
    """The committed position, its row locked until this transaction ends."""
    row = conn.execute(
        "SELECT position FROM ledger_tracking WHERE projection = %s FOR UPDATE", (name,)
    ).fetchone()
    return int(row[0]) if row else 0


def stalled(conn: Connection[Any]) -> dict[str, str]:
    """Each projection that stopped at an event it could not apply, and why."""
    exists = conn.execute("SELECT to_regclass('ledger_tracking')").fetchone()
    if not exists or exists[0] is None:
        return {}
    has_column = conn.execute(
        "SELECT 1 FROM information_schema.columns WHERE table_name = 'ledger_tracking' "
        "AND column_name = 'stalled' AND table_schema = current_schema()").fetchone()
    if not has_column:
        return {}
    rows = conn.execute("SELECT projection, stalled FROM ledger_tracking "
                        "WHERE stalled IS NOT NULL ORDER BY 1").fetchall()
    return {name: reason for name, reason in rows}


def positions(conn: Connection[Any]) -> dict[str, int]:
    """Each projection's position; empty when no projection has run yet."""
    exists = conn.execute("SELECT to_regclass('ledger_tracking')").fetchone()
    if not exists or exists[0] is None:
        return {}
    rows = conn.execute("SELECT projection, position FROM ledger_tracking ORDER BY 1").fetchall()
    return {name: position for name, position in rows}
