"""Read models from the projections' tables, as pydantic models the CLI renders.

These read the projections, never the event store, so their cost follows the size of the
floor, not the length of the history.
"""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal
from typing import Any
from uuid import UUID

from psycopg import Connection
from psycopg.rows import dict_row
from pydantic import BaseModel

from ledger.domain.table import check_table_code
from ledger.errors import NotFound
from projections.registry import projection_names
from projections.runner import head


class TableState(BaseModel):
    """A table as the `table_state` projection has it."""

    stream_id: UUID
    code: str
    is_open: bool
    game: str
    rule_set: str
    min_bet: Decimal
    max_bet: Decimal
    pit: str
    dealer: str | None
    opened_at: datetime
    closed_at: datetime | None
    round_id: UUID | None
    round_number: int | None
    round_phase: str | None
    bets: Any
    cards_shown: Any
    shoe_id: UUID | None
    shoe_cards_remaining: int | None
    last_results: Any
    version: int
    events_applied: int
    updated_position: int


class ProjectionStatus(BaseModel):
    name: str
    position: int
    last_position: int
    lag: int  # events recorded after the position, not yet applied
    updated_at: datetime | None


def table_states(conn: Connection[Any]) -> list[TableState]:
    """Every table, by code."""
    with conn.cursor(row_factory=dict_row) as cursor:
        rows = cursor.execute("SELECT * FROM table_state ORDER BY code").fetchall()
    return [TableState(**row) for row in rows]


def table_state(conn: Connection[Any], code: str) -> TableState:
    code = check_table_code(code)
    with conn.cursor(row_factory=dict_row) as cursor:
        row = cursor.execute("SELECT * FROM table_state WHERE code = %s", (code,)).fetchone()
    if row is None:
        raise NotFound(f"table {code} is not in the table-state projection.")
    return TableState(**row)


def projection_statuses(conn: Connection[Any]) -> list[ProjectionStatus]:
    """Each known projection's position and lag (position 0 for one that never ran)."""
    last = head(conn)
    tracked = {
        name: (int(position), updated_at)
        for name, position, updated_at in conn.execute(
            "SELECT projection, position, updated_at FROM ledger_tracking"
        ).fetchall()
    }
    statuses = []
    for name in projection_names():
        position, updated_at = tracked.get(name, (0, None))
        lag_row = conn.execute(
            "SELECT count(*) FROM ledger_events WHERE notification_id > %s", (position,)
        ).fetchone()
        statuses.append(ProjectionStatus(
            name=name, position=position, last_position=last,
            lag=int(lag_row[0]) if lag_row else 0, updated_at=updated_at,
        ))
    return statuses
