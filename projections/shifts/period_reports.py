"""The gaming-day report and the month-to-date summary: the shift report's lines added up.

A gaming day's report has every table's shifts of the day, a line a shift of the floor, a line
a table for the whole day, game and pit subtotals and the floor's total, and whether the day is
closed (the close locks it: nothing more but the late drop and supervisors' adjustments). The
month to date adds up the month's gaming days through a given day, a line a day, by game and by
pit. In both, a shift's accounting win counts once its drop is counted: the roll-ups add the
shifts counted so far and say how many are not (`Rollup.uncounted`), so the hold is that of the
counted shifts. Reads the `shift_report` projection's tables and, for the close, the gaming
days' own streams (by their ids: an index read, never a scan of the events).
"""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from psycopg import Connection
from psycopg.rows import dict_row
from pydantic import BaseModel

from ledger.core.errors import NotFound
from projections.shifts.read import (
    DAY_STARTS,
    DayClose,
    Rollup,
    TableShift,
    UnassignedRound,
    by,
    closes,
    position,
    rollup,
    shifts_held,
    table_shifts,
    unassigned_rounds,
)


class GamingDayView(BaseModel):
    gaming_day: date
    closed: DayClose | None  # None: the day is still open
    tables: list[TableShift]  # each table's shift of the day, shift by shift
    by_shift: list[Rollup]  # in the order of the shift schedule
    by_table: list[Rollup]  # each table's whole day
    by_game: list[Rollup]
    by_pit: list[Rollup]
    floor: Rollup
    unassigned: list[UnassignedRound] = []
    position: int | None = None


class MonthToDateView(BaseModel):
    first_day: date
    last_day: date
    closed_days: list[DayClose]
    by_day: list[Rollup]  # a line a gaming day with a shift
    by_game: list[Rollup]
    by_pit: list[Rollup]
    floor: Rollup
    unassigned: int = 0  # rounds played outside every shift in the month: in no figure
    position: int | None = None


def gaming_day_report(conn: Connection[Any], gaming_day: date,
                      shift_order: tuple[str, ...] = (), *,
                      day_starts: timedelta = DAY_STARTS) -> GamingDayView:
    """The gaming day's report; its shifts in `shift_order` (the schedule), others after; the
    day starts `day_starts` after midnight, Macau time."""
    with conn.cursor(row_factory=dict_row) as cursor:
        tables = table_shifts(cursor, gaming_day, gaming_day)
        if not tables:
            raise NotFound(f"no shift of gaming day {gaming_day} is in the ledger: "
                           f"{shifts_held(cursor)}.")
        unassigned = unassigned_rounds(cursor, gaming_day, gaming_day, day_starts=day_starts)
        tracked = position(cursor)
    rank = {name: index for index, name in enumerate(shift_order)}
    tables.sort(key=lambda t: (rank.get(t.shift, len(rank)), t.shift, t.table))
    shifts = sorted(by("shift", tables, counted_only=True),
                    key=lambda r: (rank.get(r.name, len(rank)), r.name))
    return GamingDayView(
        gaming_day=gaming_day, closed=closes(conn, [gaming_day]).get(gaming_day), tables=tables,
        by_shift=shifts, by_table=by("table", tables, counted_only=True),
        by_game=by("game", tables, counted_only=True), by_pit=by("pit", tables, counted_only=True),
        floor=rollup("floor", tables, counted_only=True), unassigned=unassigned, position=tracked)


def month_to_date(conn: Connection[Any], through: date, *,
                  day_starts: timedelta = DAY_STARTS) -> MonthToDateView:
    """The month of `through`, from its first gaming day to `through`."""
    first = through.replace(day=1)
    with conn.cursor(row_factory=dict_row) as cursor:
        tables = table_shifts(cursor, first, through)
        if not tables:
            raise NotFound(f"no shift from {first} to {through} is in the ledger: "
                           f"{shifts_held(cursor)}.")
        unassigned = len(unassigned_rounds(cursor, first, through, day_starts=day_starts))
        tracked = position(cursor)
    days = sorted({t.gaming_day for t in tables})
    by_day = [rollup(day.isoformat(), (t for t in tables if t.gaming_day == day),
                     counted_only=True) for day in days]
    closed = closes(conn, days)
    return MonthToDateView(
        first_day=first, last_day=through, closed_days=[closed[d] for d in days if d in closed],
        by_day=by_day, by_game=by("game", tables, counted_only=True),
        by_pit=by("pit", tables, counted_only=True),
        floor=rollup("floor", tables, counted_only=True), unassigned=unassigned,
        position=tracked)
