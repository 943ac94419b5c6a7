"""The shift report as read models: per table, rolled up per game, pit and floor.

Reads only the `shift_report` projection's tables, so its cost follows the number of tables
in the shift, not the length of the history.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from datetime import date, datetime, timedelta
from decimal import Decimal
from typing import Any

from psycopg import Connection, Cursor
from psycopg.rows import dict_row
from pydantic import BaseModel

from ledger.core.errors import NotFound
from ledger.core.expectation import CONFIDENCE, Expectation
from ledger.core.formatting import chance, money
from ledger.domain.gaming_day import GamingDay, gaming_day_id
from ledger.domain.shift_schedule import DEFAULT_SCHEDULE, ShiftSchedule
from projections.shifts.report import ShiftReport

ZERO = Decimal("0.00")
HOLD_LIMIT = Decimal(100)
DAY_STARTS = ShiftSchedule.parse(DEFAULT_SCHEDULE).day_starts  # unless the caller says
"""A hold beyond ±100% (a win larger than the drop itself) is flagged whatever the band says."""


class SpotFigures(BaseModel):
    spot: str
    bets: int
    handle: Decimal
    table_win: Decimal


class Figures(BaseModel):
    """What every line of the report has, whether one table or a roll-up."""

    rounds_played: int = 0
    rounds_voided: int = 0
    handle: Decimal = ZERO
    payouts: Decimal = ZERO
    commission: Decimal = ZERO
    ledger_win: Decimal = ZERO
    accounting_win: Decimal | None = ZERO
    drop: Decimal | None = ZERO  # None: a drop box not counted yet
    jackpot_stakes: Decimal = ZERO
    jackpot_contributions: Decimal = ZERO
    jackpot_prizes: Decimal = ZERO
    irregularities: int = 0

    @property
    def variance(self) -> Decimal | None:
        """Accounting win minus ledger win: zero when chips, drop and events agree."""
        return None if self.accounting_win is None else self.accounting_win - self.ledger_win

    @property
    def hold_pct(self) -> Decimal | None:
        win = self.accounting_win
        if win is None or not self.drop:
            return None
        return (win / self.drop * 100).quantize(Decimal("0.01"))


class SlipLine(BaseModel):
    """A fill or credit slip of the shift, by its number; a voided slip is kept, marked."""

    number: int
    kind: str
    amount: Decimal
    voided: bool


class TableShift(Figures):
    table: str
    game: str
    pit: str
    gaming_day: date
    shift: str
    status: str
    opening: Decimal
    previous_closing: Decimal | None = None  # the last closer's count, where it differs
    drop_after_close: bool = False  # the drop entered or adjusted after the day closed
    adjustments_after_close: Decimal = ZERO
    closing: Decimal | None
    fills: Decimal
    credits: Decimal
    drop_cash: Decimal
    drop_markers: Decimal
    dealers: list[str]  # who dealt the shift's rounds (opened them), in the order they began
    dealt_no_round: list[str] = []  # signed in or signed a count in the shift, dealt no round
    slips: list[SlipLine] = []
    spots: list[SpotFigures]
    expected_win: Decimal
    band_low: Decimal
    band_high: Decimal
    probability: float = 1.0  # money-safe: of a win this far from the expected by chance alone
    flags: list[str]


class Rollup(Figures):
    name: str
    tables: int = 0
    flagged: int = 0
    uncounted: int = 0  # of a period's roll-up: shifts whose accounting win is not in it yet
    opening: Decimal = ZERO
    closing: Decimal | None = ZERO  # None while any table's closing count is missing
    fills: Decimal = ZERO
    credits: Decimal = ZERO


class UnassignedRound(BaseModel):
    """A round played outside every shift of its table: in no shift's figures."""

    table: str
    number: int | None
    opened_at: datetime | None


class DayClose(BaseModel):
    """A gaming day's close: when, and by whom."""

    gaming_day: date
    at: datetime
    by: str


class ShiftReportView(BaseModel):
    gaming_day: date
    shift: str
    day_closed: DayClose | None = None  # None: the gaming day is still open
    tables: list[TableShift]
    unassigned: list[UnassignedRound] = []  # of the gaming day (Macau), at any table
    by_game: list[Rollup]
    by_pit: list[Rollup]
    floor: Rollup
    position: int | None = None  # how far into the ledger the shift-report projection had read


def _expectation(stakes: list[dict[str, Any]], pairs: list[dict[str, Any]]) -> Expectation:
    """What the shift's bets were expected to win, each under the odds of its round's terms,
    and the variance of its rounds' win, each round's bets taken together."""
    from projections.shifts.statistics import UNKNOWN, odds_of_line, round_odds, win_variance

    expected = Decimal(0)
    for k in stakes:
        expected += k["handle"] * odds_of_line(k["game"], k["rule_set"], k["settings"]).get(
            k["spot"], UNKNOWN).edge
    by_terms: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for p in pairs:
        by_terms[p["terms"]].append(p)
    variance = Decimal(0)
    for lines in by_terms.values():
        first = lines[0]
        variance += win_variance(round_odds(first["game"], first["rule_set"], first["settings"]),
                                 [(p["spot_a"], p["spot_b"], p["within"], p["whole"])
                                  for p in lines])
    return Expectation(expected, variance)


def _table_shift(row: dict[str, Any], handle_rows: list[dict[str, Any]],
                 slips: list[SlipLine], stakes: list[dict[str, Any]],
                 pairs: list[dict[str, Any]], dealt: list[str]) -> TableShift:
    spots = [SpotFigures(spot=h["spot"], bets=h["bets"], handle=h["handle"],
                         table_win=h["table_win"]) for h in handle_rows]
    game = row["game"] or "?"
    expectation = _expectation(stakes, pairs)
    expected = expectation.expected.quantize(Decimal("0.01"))
    drop = row["drop_cash"] + row["drop_markers"] if row["drop_entered"] else None
    accounting = None  # until the shift is closed and its drop counted
    if row["closing_total"] is not None and drop is not None:
        accounting = (row["closing_total"] - row["opening_total"] + row["credits"]
                      - row["fills"] + drop)
    ledger_win = row["table_win"] - row["adjustments"]
    low, high = expectation.band(CONFIDENCE)
    report = TableShift(
        table=row["table_code"], game=game, pit=row["pit"] or "?", gaming_day=row["gaming_day"],
        shift=row["shift"], status=row["status"], opening=row["opening_total"],
        previous_closing=row.get("previous_closing"),
        drop_after_close=row.get("drop_after_close") or False,
        adjustments_after_close=row.get("adjustments_after_close") or ZERO,
        closing=row["closing_total"], fills=row["fills"], credits=row["credits"],
        drop_cash=row["drop_cash"], drop_markers=row["drop_markers"], dealers=dealt,
        dealt_no_round=[d for d in row["dealers"] if d not in dealt],
        slips=slips, spots=spots, expected_win=expected, band_low=low, band_high=high, flags=[],
        probability=expectation.probability(
            accounting if accounting is not None else ledger_win),
        rounds_played=row["rounds_played"], rounds_voided=row["rounds_voided"],
        handle=sum((s.handle for s in spots), ZERO), payouts=row["payouts"],
        commission=row["commission"], ledger_win=ledger_win, accounting_win=accounting,
        drop=drop, jackpot_stakes=row["jackpot_stakes"],
        jackpot_contributions=row["jackpot_contributions"], jackpot_prizes=row["jackpot_prizes"],
        irregularities=row["irregularities"],
    )
    report.flags.extend(_flags(report))
    return report


def _flags(report: TableShift) -> list[str]:
    flags = []
    win = report.accounting_win if report.accounting_win is not None else report.ledger_win
    if report.handle and not report.band_low <= win <= report.band_high:
        flags.append(
            f"win {money(win)} is outside the {CONFIDENCE * 100:.0f}% band "
            f"{money(report.band_low)} to {money(report.band_high)} expected from a handle of "
            f"{money(report.handle)}: chance alone is this far off {chance(report.probability)}"
        )
    if report.variance:
        flags.append(f"accounting and ledger win differ by {money(report.variance)}")
    if report.hold_pct is not None and abs(report.hold_pct) > HOLD_LIMIT:
        flags.append(
            f"hold {report.hold_pct}% is beyond ±{HOLD_LIMIT}%: the house won or lost more than "
            "the whole drop; check the count, the inventories and the slips (or chips brought "
            "from other tables)")
    if report.drop_after_close:
        flags.append("after close: the drop was counted or adjusted after the gaming day closed")
    if report.adjustments_after_close:
        flags.append(f"after close: {money(report.adjustments_after_close)} of adjustments "
                     "recorded after the gaming day closed")
    if report.previous_closing is not None:
        flags.append(
            f"the opening count {money(report.opening)} differs from the last closing count "
            f"{money(report.previous_closing)} at this table (by "
            f"{money(report.opening - report.previous_closing)})")
    if report.status != "closed":
        flags.append("shift not closed: no accounting win yet")
    elif report.accounting_win is None:
        flags.append("drop not counted yet: no accounting win yet")
    return flags


def rollup(name: str, tables: Iterable[TableShift], *, counted_only: bool = False) -> Rollup:
    """The lines' sums. A shift's accounting win (and hold) is None until every line's is
    known; a period's (`counted_only`) adds up the shifts counted so far and says how many are
    not (`uncounted`), so a month to date is not blank for the shift now running."""
    tables = list(tables)
    total = Rollup(name=name, tables=len({t.table for t in tables}),
                   flagged=sum(1 for t in tables if t.flags))
    if counted_only:
        counted = [t for t in tables if t.accounting_win is not None]
        total.uncounted = len(tables) - len(counted)
        _add(total, tables)
        total.accounting_win = sum((t.accounting_win or ZERO for t in counted), ZERO)
        total.drop = sum((t.drop or ZERO for t in counted), ZERO)
        return total
    _add(total, tables)
    closed = all(t.accounting_win is not None for t in tables)
    total.accounting_win = (sum((t.accounting_win or ZERO for t in tables), ZERO)
                            if closed else None)
    dropped = all(t.drop is not None for t in tables)
    total.drop = sum((t.drop or ZERO for t in tables), ZERO) if dropped else None
    total.opening = sum((t.opening for t in tables), ZERO)
    total.closing = (sum((t.closing or ZERO for t in tables), ZERO)
                     if all(t.closing is not None for t in tables) else None)
    return total


def _add(total: Rollup, tables: list[TableShift]) -> None:
    for field in ("rounds_played", "rounds_voided", "handle", "payouts", "commission",
                  "ledger_win", "jackpot_stakes", "jackpot_contributions",
                  "jackpot_prizes", "irregularities"):
        setattr(total, field, sum((getattr(t, field) for t in tables), type(getattr(total, field))()))
    total.fills = sum((t.fills for t in tables), ZERO)
    total.credits = sum((t.credits for t in tables), ZERO)


def shifts_held(cursor: Cursor[dict[str, Any]]) -> str:
    """What a report that found nothing can point to instead: "the ledger holds shifts of
    gaming days 2026-11-02 to 2026-11-29, the last day's day and swing", or that it holds none."""
    row = cursor.execute("SELECT min(gaming_day) AS first, max(gaming_day) AS last "
                         "FROM report_shifts").fetchone()
    first, last = (row["first"], row["last"]) if row else (None, None)
    if last is None:
        return "the ledger holds no shift yet"
    names = [r["shift"] for r in cursor.execute(
        "SELECT DISTINCT shift FROM report_shifts WHERE gaming_day = %s ORDER BY shift",
        (last,)).fetchall()]
    days = f"gaming day {last}" if first == last else f"gaming days {first} to {last}"
    shifts = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
    return f"the ledger holds shifts of {days}, the last day's {shifts}"


def table_shifts(cursor: Cursor[dict[str, Any]], first_day: date, last_day: date,
                 shift: str | None = None, table: str | None = None) -> list[TableShift]:
    """Every table's shift of these gaming days (one shift's, one table's), with its handle per
    bet type and its slips, by gaming day, shift and table."""
    rows = cursor.execute(
        "SELECT * FROM report_shifts WHERE gaming_day BETWEEN %s AND %s "
        "AND (%s::text IS NULL OR shift = %s) AND (%s::text IS NULL OR table_code = %s) "
        "ORDER BY gaming_day, shift, table_code",
        (first_day, last_day, shift, shift, table, table),
    ).fetchall()
    handle: dict[Any, list[dict[str, Any]]] = defaultdict(list)
    for h in cursor.execute(
        "SELECT * FROM report_handle WHERE shift_id = ANY(%s) ORDER BY spot",
        ([r["shift_id"] for r in rows],),
    ).fetchall():
        handle[h["shift_id"]].append(h)
    slips: dict[Any, list[SlipLine]] = defaultdict(list)
    for s in cursor.execute(
        "SELECT shift_id, slip AS number, kind, amount, voided FROM report_slips "
        "WHERE shift_id = ANY(%s) ORDER BY slip", ([r["shift_id"] for r in rows],),
    ).fetchall():
        slips[s.pop("shift_id")].append(SlipLine(**s))
    stakes: dict[Any, list[dict[str, Any]]] = defaultdict(list)
    for k in cursor.execute(
        "SELECT k.shift_id, coalesce(t.game, s.game) AS game, t.rule_set, t.settings, k.spot, "
        "sum(k.handle) AS handle, sum(k.sum_of_squares) AS sum_of_squares "
        "FROM report_stakes k JOIN report_shifts s ON s.shift_id = k.shift_id "
        "LEFT JOIN report_terms t ON t.terms = k.terms WHERE k.shift_id = ANY(%s) "
        "GROUP BY 1, 2, 3, 4, 5 ORDER BY 5", ([r["shift_id"] for r in rows],),
    ).fetchall():
        stakes[k.pop("shift_id")].append(k)
    pairs: dict[Any, list[dict[str, Any]]] = defaultdict(list)
    for p in cursor.execute(
        "SELECT p.shift_id, p.terms, coalesce(t.game, s.game) AS game, t.rule_set, t.settings, "
        "p.spot_a, p.spot_b, sum(p.within) AS within, sum(p.whole) AS whole "
        "FROM report_pairs p JOIN report_shifts s ON s.shift_id = p.shift_id "
        "LEFT JOIN report_terms t ON t.terms = p.terms WHERE p.shift_id = ANY(%s) "
        "GROUP BY 1, 2, 3, 4, 5, 6, 7", ([r["shift_id"] for r in rows],),
    ).fetchall():
        pairs[p.pop("shift_id")].append(p)
    dealt: dict[Any, list[str]] = defaultdict(list)
    for d in cursor.execute(  # a shift's dealers: who dealt its rounds, not who signed in
        "SELECT shift_id, dealer FROM report_rounds WHERE shift_id = ANY(%s) "
        "AND dealer IS NOT NULL GROUP BY 1, 2 ORDER BY 1, min(opened_at), 2",
        ([r["shift_id"] for r in rows],),
    ).fetchall():
        dealt[d["shift_id"]].append(d["dealer"])
    return [_table_shift(row, handle[row["shift_id"]], slips[row["shift_id"]],
                         stakes[row["shift_id"]], pairs[row["shift_id"]], dealt[row["shift_id"]])
            for row in rows]


def unassigned_rounds(cursor: Cursor[dict[str, Any]], first_day: date, last_day: date,
                      table: str | None = None, *,
                      day_starts: timedelta = DAY_STARTS) -> list[UnassignedRound]:
    """The rounds of these gaming days played outside every shift, at any table. A gaming day
    starts `day_starts` after midnight, Macau time (the schedule's first shift), so a round at
    03:00 belongs to the gaming day before."""
    return [UnassignedRound(**row) for row in cursor.execute(
        "SELECT table_code AS table, number, opened_at FROM report_rounds "
        "WHERE shift_id IS NULL "
        "  AND ((opened_at AT TIME ZONE 'Asia/Macau') - %s)::date BETWEEN %s AND %s "
        "  AND (%s::text IS NULL OR table_code = %s) ORDER BY opened_at, table_code",
        (day_starts, first_day, last_day, table, table)).fetchall()]


def position(cursor: Cursor[dict[str, Any]]) -> int | None:
    """How far into the ledger the shift-report projection has read."""
    tracked = cursor.execute("SELECT position FROM ledger_tracking WHERE projection = %s",
                             (ShiftReport.name,)).fetchone()
    return tracked["position"] if tracked else None


def by(key: str, tables: list[TableShift], *, counted_only: bool = False) -> list[Rollup]:
    """A roll-up for each value of `key` ("game", "pit", "table", "shift"), in order."""
    return [rollup(name, (t for t in tables if getattr(t, key) == name),
                   counted_only=counted_only)
            for name in sorted({getattr(t, key) for t in tables})]


def closes(conn: Connection[Any], days: list[date]) -> dict[date, DayClose]:
    """The close of each of these gaming days that has closed, read from the days' own
    streams by their ids (an index read, never a scan of the events)."""
    ids = {gaming_day_id(day): day for day in days}
    rows = conn.execute(
        "SELECT stream_id, recorded_at, body->'by'->'actor'->>'staff_id' FROM ledger_event_log "
        " WHERE stream_id = ANY(%s) AND event_type = %s", (list(ids), GamingDay.Closed.event_type),
    ).fetchall()
    return {ids[stream]: DayClose(gaming_day=ids[stream], at=at, by=staff or "?")
            for stream, at, staff in rows}


def shift_report(conn: Connection[Any], gaming_day: date, shift: str,
                 table: str | None = None, *,
                 day_starts: timedelta = DAY_STARTS) -> ShiftReportView:
    """The report of one shift of one gaming day (optionally one table); the gaming day starts
    `day_starts` after midnight, Macau time."""
    with conn.cursor(row_factory=dict_row) as cursor:
        tables = table_shifts(cursor, gaming_day, gaming_day, shift, table)
        if not tables:
            which = f" at table {table}" if table else ""
            raise NotFound(f"no {shift} shift on {gaming_day}{which} is in the ledger: "
                           f"{shifts_held(cursor)}.")
        unassigned = unassigned_rounds(cursor, gaming_day, gaming_day, table,
                                       day_starts=day_starts)
        tracked = position(cursor)
    return ShiftReportView(gaming_day=gaming_day, shift=shift, tables=tables,
                           day_closed=closes(conn, [gaming_day]).get(gaming_day),
                           unassigned=unassigned, by_game=by("game", tables),
                           by_pit=by("pit", tables), floor=rollup("floor", tables),
                           position=tracked)
