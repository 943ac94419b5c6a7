"""Read models from the projections' tables, as pydantic models the CLI renders.

These read the projections, never the event store, so their cost follows the size of the
floor, not the length of the history.
"""

from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal
from typing import Any
from uuid import UUID

from psycopg import Connection
from psycopg.rows import dict_row
from pydantic import BaseModel

from ledger.core.errors import NotFound
from ledger.domain.table import check_table_code
from projections.engine.runner import head
from projections.registry import projection_names


class LayoutBet(BaseModel):
    """A stake on the layout: a bet placed, a jackpot bet carried, or a Stud Poker raise."""

    box: int
    spot: str
    amount: Decimal
    player: str | None = None
    carried_from: str | None = None


class UpcomingLimits(BaseModel):
    effective_from: date
    min_bet: Decimal
    max_bet: Decimal
    authorisation: str | None = None


class PrizeShown(BaseModel):
    box: int
    category: str
    amount: Decimal


class RoundResult(BaseModel):
    """How one round ended, as the table's last results list it."""

    number: int
    status: str  # settled or void
    outcome: dict[str, Any] = {}
    dealer_cards: list[str] | None = None
    jackpot: list[PrizeShown] = []
    reason: str | None = None
    jackpot_carried: bool | None = None
    house_win: Decimal  # net of later adjustments
    adjustments: Decimal


class TableState(BaseModel):
    """A table as the `table_state` projection has it."""

    stream_id: UUID
    code: str
    is_open: bool
    game: str
    rule_set: str
    min_bet: Decimal
    max_bet: Decimal
    limits_from: date | None
    upcoming_limits: list[UpcomingLimits] | None
    pit: str
    dealer: str | None
    jackpot_pool: str | None
    carried_jackpot_bets: list[dict[str, Any]] | None
    opened_at: datetime
    closed_at: datetime | None
    round_id: UUID | None
    round_number: int | None
    round_phase: str | None
    bets: list[LayoutBet] | None
    cards_shown: dict[str, list[str]] | None
    shoe_id: UUID | None
    shoe_cards_remaining: int | None
    last_results: list[RoundResult] | None
    version: int
    events_applied: int
    updated_position: int


class ProjectionStatus(BaseModel):
    name: str
    position: int
    last_position: int
    lag: int  # events recorded after the position, not yet applied
    updated_at: datetime | None


def table_states(conn: Connection[Any], since: int = 0) -> list[TableState]:
    """Every table, by code; with `since`, only those an event after that position changed
    (the projection commits in the ledger's order, so none changed later is missed)."""
    with conn.cursor(row_factory=dict_row) as cursor:
        rows = cursor.execute("SELECT * FROM table_state WHERE updated_position > %s "
                              "ORDER BY code", (since,)).fetchall()
    return [TableState(**row) for row in rows]


def demonstration_coups(conn: Connection[Any]) -> dict[str, int]:
    """How many of each table's rounds were baccarat demonstration coups (art. 2(2)): numbered
    with its rounds, in none of its results."""
    rows = conn.execute("SELECT table_code, count(*) FROM table_rounds WHERE demonstration "
                        "GROUP BY table_code").fetchall()
    return {str(code): int(n) for code, n in rows}


def ended_rounds(conn: Connection[Any]) -> dict[str, tuple[int, int]]:
    """How many of each table's rounds were settled and how many voided."""
    rows = conn.execute("SELECT table_code, count(*) FILTER (WHERE phase = 'settled'), "
                        "count(*) FILTER (WHERE phase = 'void') FROM table_rounds "
                        "GROUP BY table_code").fetchall()
    return {str(code): (int(settled), int(voided)) for code, settled, voided in rows}


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


# -- jackpot pools -----------------------------------------------------------------------------
class JackpotPoolView(BaseModel):
    """A pool as the progressive controller shows it (`jackpot_pools` projection)."""

    pool_id: UUID
    name: str
    amount: Decimal
    seed: Decimal
    liability: Decimal  # amount - seed: what the pool owes players above its seed
    contributions: Decimal  # every jackpot bet's share paid into the pool
    reserve: Decimal  # the shares set aside for the next seed
    prizes: Decimal  # every prize won, whoever paid it
    paid_by_house: Decimal  # the part of the prizes the pool could not cover
    adjustments: Decimal
    resets: int
    tables: list[str]
    hits: int


class JackpotHitView(BaseModel):
    sequence: int
    table: str
    round_id: UUID
    box: int
    category: str
    prize: Decimal
    pool_before: Decimal
    paid_by_pool: Decimal
    paid_by_house: Decimal
    pool_after: Decimal
    recorded_at: datetime


class PoolAdjustmentView(BaseModel):
    amount: Decimal
    reason: str
    staff_id: str
    role: str
    pool_after: Decimal
    recorded_at: datetime


class JackpotPoolDetail(JackpotPoolView):
    hit_log: list[JackpotHitView]
    adjustment_log: list[PoolAdjustmentView]


POOLS = (
    "SELECT p.pool_id, p.name, p.amount, p.seed, p.amount - p.seed AS liability, "
    "       p.contributions, p.reserve, p.prizes, p.paid_by_house, p.adjustments, p.resets, "
    "       p.tables, (SELECT count(*) FROM jackpot_hits h WHERE h.pool_id = p.pool_id) AS hits "
    "  FROM jackpot_pools p"
)


def jackpot_pools(conn: Connection[Any]) -> list[JackpotPoolView]:
    """Every pool, by name."""
    with conn.cursor(row_factory=dict_row) as cursor:
        rows = cursor.execute(POOLS + " ORDER BY p.name").fetchall()
    return [JackpotPoolView(**row) for row in rows]


def jackpot_pool(conn: Connection[Any], name: str) -> JackpotPoolDetail:
    """One pool with every hit and every adjustment, oldest first."""
    with conn.cursor(row_factory=dict_row) as cursor:
        row = cursor.execute(POOLS + " WHERE p.name = %s", (name,)).fetchone()
        if row is None:
            raise NotFound(f"jackpot pool {name} is not in the jackpot-pools projection.")
        hits = cursor.execute(
            "SELECT sequence, table_code AS table, round_id, box, category, prize, pool_before, "
            "paid_by_pool, paid_by_house, pool_after, recorded_at FROM jackpot_hits "
            "WHERE pool_id = %s ORDER BY sequence", (row["pool_id"],),
        ).fetchall()
        adjustments = cursor.execute(
            "SELECT amount, reason, staff_id, role, pool_after, recorded_at "
            "FROM jackpot_adjustments WHERE pool_id = %s ORDER BY position", (row["pool_id"],),
        ).fetchall()
    return JackpotPoolDetail(
        **row, hit_log=[JackpotHitView(**hit) for hit in hits],
        adjustment_log=[PoolAdjustmentView(**adjustment) for adjustment in adjustments],
    )


def shifts_of_newest_day(conn: Connection[Any]) -> list[tuple[date, str]]:
    """The shifts the shift report holds for its newest gaming day."""
    rows = conn.execute("SELECT DISTINCT gaming_day, shift FROM report_shifts WHERE gaming_day = "
                        "(SELECT max(gaming_day) FROM report_shifts)").fetchall()
    return [(row[0], row[1]) for row in rows]
