"""Maryland's and Mississippi's statistics reports against figures worked out by hand, for a
small ledger of one Fortune 8 table written straight into the shift report's tables (its read
model: what the reports read).

The table plays Fortune 8's standard terms (six decks). Every bet is MOP 100 on a space's L,
one bet a round, so a round's win has the variance of one bet: an L bet wins 24 of 52 cards at
1:1, so per unit staked its mean is -1/13 (the house's edge 1/13 = 0.0769231) and its variance
1 - 1/169 = 168/169. n bets of 100 have the variance n x 10,000 x 168/169.

- 2025-06-10 (the previous business year): 10,000 bets, handle 1,000,000; drop 500,000,
  accounting win 76,923: win-to-drop 15.38%; its win's variance 100,000,000 x 168/169 =
  99,408,284.02, so its win-to-drop's 99,408,284.02 / 500,000² x 100² = 3.9763 points².
- 2026-03-01 and 2026-03-02: 1,000 bets each, handle 100,000 each; drop 50,000 each;
  accounting win (and bets' win) 20,000 and 10,000.

Maryland (COMAR 36.05.03.25(B)(2)), the month to 2026-03-02: the ledger has a gaming day in
2025, so the base is the previous business year, 2025-01-01 to 2025-12-31. Win-to-drop is
30,000 / 100,000 = 30.00%, a change of 30.00 - 15.38 = +14.62 points. Its variance: the
month's 20,000,000 x 168/169 / 100,000² x 100² = 19.8817 points², plus the base's 3.9763:
23.8580; the 95% interval is ±1.96 x √23.8580 = ±9.57 points, from +5.05 to +24.19. It leaves
out 0: investigate.

Mississippi, theoretical against actual hold by game: the day (2026-03-02): theoretical win
100,000 x 0.0769231 = 7,692.31, hold 7.69%; actual 10.00%; the band ±1.96 x √(10,000,000 x
168/169) = ±1.96 x 3,152.91 = ±6,179.70, from 1,512.61 to 13,872.01, a hold of 1.51% to
13.87%: inside. The month to date (and the year to date, the same days): handle 200,000,
theoretical 15,384.62 (7.69%), actual 30,000 (15.00%), band ±1.96 x 4,458.89 = ±8,739.42:
6,645.20 to 24,124.04, a hold of 3.32% to 12.06%: outside, listed for investigation.
"""

from __future__ import annotations

import json
from datetime import date
from decimal import Decimal
from uuid import uuid4

from psycopg.types.json import Jsonb

from ledger.reports.base import PREVIOUS_MONTH, PREVIOUS_YEAR
from ledger.reports.hold import hold_report
from ledger.reports.statistics import statistics

TERMS = "f8-standard"
SETTINGS = {"effective_from": "2000-01-01", "authorisation": "standard", "min_bet": "100",
            "max_bet": "5000", "decks": 6, "equipment": "shoe", "deal_mode": "all_spaces"}


def _shift(conn, day: str, bets: int, drop: int, win: int) -> None:
    """A closed, counted shift of F8-01 whose bets are `bets` rounds of MOP 100 on L."""
    shift = uuid4()
    conn.execute(
        "INSERT INTO report_shifts (shift_id, table_code, gaming_day, shift, game, pit, status, "
        "opening_total, closing_total, drop_cash, drop_entered, updated_position) "
        "VALUES (%s, 'F8-01', %s, 'day', 'fortune-8', 'P1', 'closed', 100000, %s, %s, true, 1)",
        (shift, day, 100000 + win - drop, drop))
    squares = bets * 100 * 100
    conn.execute("INSERT INTO report_stakes VALUES (%s, 'D-1', %s, 'L', %s, %s, %s, %s)",
                 (shift, TERMS, bets, bets * 100, squares, win))
    conn.execute("INSERT INTO report_pairs VALUES (%s, 'D-1', %s, 'L', 'L', %s, %s)",
                 (shift, TERMS, squares, squares))


def _ledger(conn, *days: tuple[str, int, int, int]) -> None:
    conn.execute("INSERT INTO report_terms VALUES (%s, 'fortune-8', 'fortune-8/2009', %s)",
                 (TERMS, Jsonb(SETTINGS)))
    for day in days:
        _shift(conn, *day)


MARCH = (("2026-03-01", 1_000, 50_000, 20_000), ("2026-03-02", 1_000, 50_000, 10_000))


def test_comar_36_05_03_25_b2_win_to_drop_change_from_the_previous_business_year(
        database, superuser):
    _ledger(superuser, ("2025-06-10", 10_000, 500_000, 76_923), *MARCH)
    with database.connect() as conn:
        report = statistics(conn, "month", date(2026, 3, 2))
    assert report.base is not None and report.base.label == PREVIOUS_YEAR
    assert (report.base.first_day, report.base.last_day) == (date(2025, 1, 1), date(2025, 12, 31))
    floor = next(line for line in report.lines if line.level == "floor")
    assert floor.figures.win_to_drop_pct == Decimal("30.00")
    assert floor.base is not None and floor.base.win_to_drop_pct == Decimal("15.38")
    assert floor.change is not None
    assert (floor.change.points, floor.change.low, floor.change.high) == (
        Decimal("14.62"), Decimal("5.05"), Decimal("24.19"))
    assert any("COMAR 36.05.03.25(B)(2)" in flag for flag in floor.flags)
    # the band counts both sides: the same result is twice as likely here as in protection
    assert any("a result this far off, above or below it," in flag for flag in floor.flags)


def test_comar_36_05_03_25_b2_in_the_first_year_the_base_is_the_previous_month(
        database, superuser):
    """The same March against a February of the ledger's first year (2,000 bets, drop
    100,000, win 15,384): win-to-drop 15.38% again, and the base is the month before."""
    _ledger(superuser, ("2026-02-10", 2_000, 100_000, 15_384), *MARCH)
    with database.connect() as conn:
        report = statistics(conn, "month", date(2026, 3, 2))
        first_month = statistics(conn, "month", date(2026, 2, 10))
    assert report.base is not None and report.base.label == PREVIOUS_MONTH
    assert (report.base.first_day, report.base.last_day) == (date(2026, 2, 1), date(2026, 2, 28))
    floor = next(line for line in report.lines if line.level == "floor")
    assert floor.base is not None and floor.base.win_to_drop_pct == Decimal("15.38")
    assert floor.change is not None and floor.change.points == Decimal("14.62")
    assert first_month.base is None  # the ledger's first month: nothing before it


def test_mississippi_theoretical_against_actual_hold_by_game_day_month_and_year(
        database, superuser):
    _ledger(superuser, ("2025-06-10", 10_000, 500_000, 76_923), *MARCH)
    with database.connect() as conn:
        report = hold_report(conn, date(2026, 3, 2))
    lines = {(line.period, line.level): line for line in report.lines}
    day, month, ytd = (lines[period, "game"] for period in ("day", "month", "ytd"))
    assert day.name == "fortune-8" and day.figures.handle == Decimal(100000)
    assert day.figures.theoretical_win == Decimal("7692.31")
    assert (day.figures.theoretical_hold_pct, day.figures.actual_hold_pct) == (
        Decimal("7.69"), Decimal("10.00"))
    assert (day.hold_low, day.hold_high) == (Decimal("1.51"), Decimal("13.87"))
    assert not day.flag
    for line in (month, ytd):
        assert line.figures.theoretical_win == Decimal("15384.62")
        assert line.figures.actual_hold_pct == Decimal("15.00")
        assert (line.hold_low, line.hold_high) == (Decimal("3.32"), Decimal("12.06"))
        assert line.flag
    assert [(line.period, line.level) for line in report.flagged] == [
        ("month", "game"), ("month", "floor"), ("ytd", "game"), ("ytd", "floor")]
    assert json.loads(json.dumps(report.model_dump(mode="json")))["through"] == "2026-03-02"
