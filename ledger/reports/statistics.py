"""The statistics accounting and regulators read: theoretical win from the real handle, the band
chance allows around it, and hold on the handle beside hold on the drop, for a gaming day, a
month to date or a year to date, per table, dealer, game, pit and the floor, with the same
period of last year beside it.

Theoretical win is the sum over the period's bets of stake × the exact house edge of that bet
under the rule set and settings its round was played under (`ledger.games.odds`); its band is
the win's variance from the same bets (`ledger.core.expectation`). A line outside its band is
flagged with the probability of so large a departure by chance; a win-to-drop that swung more
than a threshold from the same period of last year is flagged too. Investigation notes on the
period (`Investigation.Noted`) are shown on every line they name.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from datetime import date, datetime
from decimal import Decimal
from typing import Any

from psycopg import Connection
from psycopg.rows import dict_row
from pydantic import BaseModel

from ledger import software_version
from ledger.core.errors import InvalidInput, NotFound
from ledger.core.expectation import CONFIDENCE, Expectation
from ledger.core.formatting import chance, money
from ledger.games.odds import BetOdds
from projections import statistics as read
from projections.reports import TableShift, position, table_shifts

ZERO = Decimal("0.00")
SWING = Decimal(3)  # percentage points of win-to-drop against the base period (Kansas)
LEVELS = ("table", "dealer", "game", "pit", "floor")
KINDS = {"day": "gaming day", "month": "month to date", "ytd": "year to date"}


def period_of(kind: str, through: date) -> tuple[date, date]:
    """The gaming days of a period ending on `through`: that day, its month so far, or its
    year so far."""
    if kind == "day":
        return through, through
    if kind == "month":
        return through.replace(day=1), through
    if kind == "ytd":
        return through.replace(month=1, day=1), through
    raise InvalidInput(f"unknown period '{kind}': give day, month or ytd.")


def a_year_before(day: date) -> date:
    """The same day of last year (29 February: the 28th)."""
    try:
        return day.replace(year=day.year - 1)
    except ValueError:
        return day.replace(year=day.year - 1, day=28)


class Figures(BaseModel):
    """A line's figures over one period."""

    bets: int = 0
    handle: Decimal = ZERO
    theoretical_win: Decimal = ZERO
    win_variance: Decimal = ZERO  # of the win, money squared
    actual_win: Decimal = ZERO  # what the bets' results gave the house
    drop: Decimal | None = None  # None: no counted drop (a dealer's line has none)
    accounting_win: Decimal | None = None  # chips and drop: closing − opening + credits − fills + drop
    shifts_uncounted: int = 0

    @property
    def expectation(self) -> Expectation:
        return Expectation(self.theoretical_win, self.win_variance)

    def pct(self, part: Decimal | None, whole: Decimal | None) -> Decimal | None:
        if part is None or not whole:
            return None
        return (part / whole * 100).quantize(Decimal("0.01"))

    @property
    def theoretical_hold_pct(self) -> Decimal | None:
        return self.pct(self.theoretical_win, self.handle)

    @property
    def actual_hold_pct(self) -> Decimal | None:
        return self.pct(self.actual_win, self.handle)

    @property
    def variance_pct(self) -> Decimal | None:
        """Actual hold minus theoretical hold on the handle, in percentage points."""
        if self.actual_hold_pct is None or self.theoretical_hold_pct is None:
            return None
        return self.actual_hold_pct - self.theoretical_hold_pct

    @property
    def dollar_variance(self) -> Decimal:
        """Actual win minus theoretical win: what chance (or something else) moved."""
        return (self.actual_win - self.theoretical_win).quantize(Decimal("0.01"))

    @property
    def win_to_drop_pct(self) -> Decimal | None:
        return self.pct(self.accounting_win, self.drop)


class Line(BaseModel):
    level: str  # table, dealer, game, pit or floor
    name: str
    figures: Figures
    base: Figures | None = None  # the same period of last year
    band_low: Decimal = ZERO
    band_high: Decimal = ZERO
    probability: float = 1.0  # money-safe: of a departure this large by chance alone
    flags: list[str] = []
    notes: list[read.Note] = []

    @property
    def swing_pct(self) -> Decimal | None:
        now = self.figures.win_to_drop_pct
        then = self.base.win_to_drop_pct if self.base else None
        return None if now is None or then is None else now - then


class StatisticsReport(BaseModel):
    title: str
    software_version: str
    property_name: str
    kind: str
    first_day: date
    last_day: date
    base_first_day: date
    base_last_day: date
    generated_at: datetime
    confidence: Decimal
    swing_threshold: Decimal
    lines: list[Line]
    notes: list[read.Note]
    position: int | None = None


def _keys(level: str, item: Any) -> str:
    return "floor" if level == "floor" else str(getattr(item, level))


def _figures(stakes: list[read.StakeLine], shifts: list[TableShift], level: str,
             odds: dict[str, dict[str, BetOdds]]) -> dict[str, Figures]:
    found: dict[str, Figures] = defaultdict(Figures)
    for line in stakes:
        bet = odds[line.terms].get(line.spot, read.UNKNOWN)
        f = found[_keys(level, line)]
        f.bets += line.bets
        f.handle += line.handle
        f.theoretical_win += line.handle * bet.edge
        f.win_variance += line.sum_of_squares * bet.variance
        f.actual_win += line.table_win
    if level == "dealer":
        return found
    for shift in shifts:
        f = found[_keys(level, shift)]
        if shift.accounting_win is None or shift.drop is None:
            f.shifts_uncounted += 1
            continue
        f.drop = (f.drop or ZERO) + shift.drop
        f.accounting_win = (f.accounting_win or ZERO) + shift.accounting_win
    return found  # exact: each line rounds once, after its band (`_rounded`)


def _rounded(figures: Figures | None) -> None:
    """The theoretical win to the avo, rounded once from the exact sum of stake × edge, the
    same way on every level: a table and its only dealer show the same figures."""
    if figures is not None:
        figures.theoretical_win = figures.theoretical_win.quantize(Decimal("0.01"))


def _odds(cursor: Any, stakes: Iterable[read.StakeLine]) -> dict[str, dict[str, BetOdds]]:
    lines = list(stakes)
    known = read.terms(cursor, {line.terms for line in lines})
    odds = {digest: read.odds(t.game, t.rule_set, t.settings) for digest, t in known.items()}
    for line in lines:  # rounds an older version recorded without their terms
        if line.terms not in odds:
            odds[line.terms] = read.default_odds(line.game)
    return odds


def _flags(line: Line, confidence: Decimal, swing: Decimal) -> list[str]:
    f = line.figures
    flags = []
    if f.handle and f.expectation.outside(f.actual_win, confidence):
        flags.append(
            f"win {money(f.actual_win)} is outside the {confidence * 100:.0f}% band "
            f"{money(line.band_low)} to {money(line.band_high)} around the theoretical win "
            f"{money(f.theoretical_win)} on a handle of {money(f.handle)}: chance alone gives "
            f"a result this far off {chance(line.probability)}")
    moved = line.swing_pct
    if moved is not None and abs(moved) > swing and line.base is not None:
        flags.append(
            f"win-to-drop {f.win_to_drop_pct}% swung {moved:+} points from "
            f"{line.base.win_to_drop_pct}% in the same period last year (beyond ±{swing})")
    return flags


def _noted(level: str, name: str, notes: list[read.Note]) -> list[read.Note]:
    scope = "floor" if level == "floor" else f"{level} {name}"
    return [n for n in notes if n.scope.casefold() == scope.casefold()]


def statistics(conn: Connection[Any], kind: str, through: date, *, property_name: str = "",
               confidence: Decimal = CONFIDENCE, swing: Decimal = SWING,
               now: datetime | None = None) -> StatisticsReport:
    """The statistics report of the period of `kind` ending on gaming day `through`."""
    from ledger.core.expectation import z_score

    z_score(confidence)  # refuses a confidence outside (0, 1) before any reading
    first, last = period_of(kind, through)
    base_first, base_last = a_year_before(first), a_year_before(last)
    with conn.cursor(row_factory=dict_row) as cursor:
        stakes, shifts = read.stake_lines(cursor, first, last), table_shifts(cursor, first, last)
        if not stakes and not shifts:
            raise NotFound(f"no bet from {first} to {last} is in the ledger.")
        base_stakes = read.stake_lines(cursor, base_first, base_last)
        base_shifts = table_shifts(cursor, base_first, base_last)
        odds = _odds(cursor, stakes + base_stakes)
        notes = read.notes(cursor, first, last)
        tracked = position(cursor)
    lines = []
    for level in LEVELS:
        now_figures = _figures(stakes, shifts, level, odds)
        then_figures = _figures(base_stakes, base_shifts, level, odds)
        for name in sorted(now_figures):
            f = now_figures[name]
            low, high = f.expectation.band(confidence)  # from the exact theoretical win
            line = Line(level=level, name=name, figures=f, base=then_figures.get(name),
                        band_low=low, band_high=high,
                        probability=f.expectation.probability(f.actual_win),
                        notes=_noted(level, name, notes))
            line.flags = _flags(line, confidence, swing)
            _rounded(line.figures)
            _rounded(line.base)
            lines.append(line)
    generated = now or datetime.now().astimezone()
    return StatisticsReport(
        title=f"Table games statistics, {KINDS[kind]}", software_version=software_version(),
        property_name=property_name, kind=kind, first_day=first, last_day=last,
        base_first_day=base_first, base_last_day=base_last, generated_at=generated,
        confidence=confidence, swing_threshold=swing, lines=lines, notes=notes,
        position=tracked)




