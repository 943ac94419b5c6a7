"""Whether a ledger is a practice ledger: one made by `ledger db init --practice` (the demo's),
which may hold simulated play and says so on everything it gives out.

The mark is a one-row table written when the ledger is first initialised (by a release that
knows practice ledgers: the demo's ledger of an earlier release is marked as it is upgraded)
and never after:
append-only (no update, delete or truncate), owned by the owner role, readable by the writer,
reader and sealer and writable by none of them (`ledger.infrastructure.roles`). So a
property's real ledger cannot be turned into a practice one from the writer's login to take
simulated play, nor a practice ledger passed off as a real one by deleting the row.
"""

from __future__ import annotations

from typing import Any

from psycopg import Connection, sql

from ledger.core.errors import WrongState

PRACTICE_TABLE = "ledger_practice"
PRACTICE_DDL = """
    CREATE TABLE IF NOT EXISTS ledger_practice (
        only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
        made_at timestamptz NOT NULL DEFAULT clock_timestamp())"""


def create_practice_table(conn: Connection[Any]) -> bool:
    """The mark's table (empty on a real ledger), made append-only by the caller; whether it
    was made now (a new ledger, or one a release before practice ledgers made)."""
    row = conn.execute("SELECT to_regclass('ledger_practice') IS NULL").fetchone()
    conn.execute(PRACTICE_DDL)
    return bool(row and row[0])


def mark_practice(conn: Connection[Any], events_table: str, first_time: bool) -> None:
    """Mark a ledger as a practice ledger, the first time it is initialised by a release that
    knows practice ledgers (`first_time`: the mark's table was made just now); a ledger
    initialised since without the mark holds events as a real one and is not marked."""
    if is_practice(conn):
        return
    held = conn.execute(sql.SQL("SELECT EXISTS (SELECT FROM {})").format(
        sql.Identifier(events_table))).fetchone()
    if held and held[0] and not first_time:
        raise WrongState("this ledger already holds events as a real ledger: a practice ledger "
                         "is made on a new, empty database (`ledger db init --practice` there).")
    conn.execute("INSERT INTO ledger_practice DEFAULT VALUES ON CONFLICT DO NOTHING")


def is_practice(conn: Connection[Any]) -> bool:
    """Whether the ledger is marked for practice (False where the table is not there yet)."""
    row = conn.execute("SELECT to_regclass('ledger_practice') IS NOT NULL").fetchone()
    if not row or not row[0]:
        return False
    found = conn.execute("SELECT EXISTS (SELECT FROM ledger_practice)").fetchone()
    return bool(found and found[0])
