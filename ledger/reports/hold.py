"""Theoretical against actual hold by game, for the gaming day, the month to date and the year
to date: the comparison Mississippi's statistical reports ask of table games, each figure with
the band chance allows it and what is outside it listed for investigation.

Hold is on the handle: actual hold = the bets' win ÷ the amounts staked; theoretical hold =
the theoretical win (Σ stake × edge) ÷ the same handle. The band of actual hold is the band of
the win (each round's bets taken together, `ledger.reports.statistics`) over the handle.
"""

from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal
from typing import Any

from psycopg import Connection
from psycopg.rows import dict_row
from pydantic import BaseModel

from ledger import software_version
from ledger.core import clock
from ledger.core.errors import NotFound
from ledger.core.expectation import CONFIDENCE, z_score
from ledger.core.formatting import chance, money
from ledger.presentation.wording import line_name
from ledger.reports.base import period_of
from ledger.reports.statistics import KINDS, Figures, odds_of, read_period
from projections.shifts.read import position

TITLE = "Table games hold, theoretical against actual"
PERIODS = ("day", "month", "ytd")
LEVELS = ("game", "floor")
HUNDREDTH = Decimal("0.01")


class HoldLine(BaseModel):
    """One game's (or the floor's) hold over one period."""

    period: str  # day, month or ytd
    first_day: date
    last_day: date
    level: str  # game or floor
    name: str
    figures: Figures
    hold_low: Decimal | None  # the band of actual hold, in percent of the handle
    hold_high: Decimal | None
    probability: float  # money-safe: of a departure this large by chance alone
    flag: str = ""

    @property
    def outside(self) -> bool:
        return bool(self.flag)


class HoldReport(BaseModel):
    title: str
    software_version: str
    property_name: str
    through: date
    generated_at: datetime
    confidence: Decimal
    lines: list[HoldLine]
    position: int | None = None

    @property
    def flagged(self) -> list[HoldLine]:
        return [line for line in self.lines if line.flag]


def _line(kind: str, first: date, last: date, level: str, name: str, f: Figures,
          confidence: Decimal) -> HoldLine:
    low, high = f.expectation.band(confidence)
    hold_low = f.pct(low, f.handle)
    hold_high = f.pct(high, f.handle)
    probability = f.expectation.probability(f.actual_win)
    flag = ""
    if f.handle and f.expectation.outside(f.actual_win, confidence):
        flag = (f"{KINDS[kind]} {first} to {last}, {line_name(level, name)}: actual hold "
                f"{f.actual_hold_pct}% against a theoretical {f.theoretical_hold_pct}% on a handle "
                f"of {money(f.handle)}, outside the {confidence * 100:.0f}% band {hold_low}% to "
                f"{hold_high}%: chance alone gives a hold this far off {chance(probability)}")
    return HoldLine(period=kind, first_day=first, last_day=last, level=level, name=name,
                    figures=f, hold_low=hold_low, hold_high=hold_high,
                    probability=probability, flag=flag)


def hold_report(conn: Connection[Any], through: date, *, property_name: str = "",
                confidence: Decimal = CONFIDENCE, now: datetime | None = None) -> HoldReport:
    """Theoretical against actual hold by game and for the floor, for the gaming day
    `through`, its month to date and its year to date."""
    z_score(confidence)
    lines = []
    with conn.cursor(row_factory=dict_row) as cursor:
        for kind in PERIODS:
            first, last = period_of(kind, through)
            period = read_period(cursor, first, last)
            if kind == "ytd" and not period.stakes:
                raise NotFound(f"no bet from {first} to {last} is in the ledger.")
            odds = odds_of(cursor, [*period.stakes, *period.pairs])
            for level in LEVELS:
                for name, f in sorted(period.figures(level, odds).items()):
                    lines.append(_line(kind, first, last, level, name, f, confidence))
        tracked = position(cursor)
    return HoldReport(
        title=TITLE, software_version=software_version(),
        property_name=property_name, through=through,
        generated_at=now or clock.now().astimezone(), confidence=confidence, lines=lines,
        position=tracked)
