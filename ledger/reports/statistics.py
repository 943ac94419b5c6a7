"""The statistics accounting and regulators read: theoretical win from the real handle, the band
chance allows around it, and hold on the handle beside hold on the drop, for a gaming day, a
month to date or a year to date, per table, dealer, game, pit and the floor, with win-to-drop's
change from its base period and that change's interval (COMAR 36.05.03.25(B)(2)).

Theoretical win is the sum over the period's bets of stake x the exact house edge of that bet
under the rule set and settings its round was played under (`ledger.games.odds`); its band is
the win's variance, each round's bets taken together (`RoundOdds`, through the `Game`
protocol), summed over the rounds. A line outside its band is flagged with the probability of
so large a departure by chance. Win-to-drop is compared with its base (`ledger.reports.base`):
a change outside its interval is flagged for investigation. Investigation notes on the period
(`Investigation.Noted`) are shown on every line they name.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from typing import Any

from psycopg import Connection
from psycopg.rows import dict_row
from pydantic import BaseModel

from ledger import software_version
from ledger.core import clock
from ledger.core.errors import NotFound
from ledger.core.expectation import CONFIDENCE, Expectation, z_score
from ledger.core.formatting import chance, money
from ledger.games.odds import BetOdds, RoundOdds
from ledger.reports.base import Base, base_period, period_of
from projections.shifts import statistics as read
from projections.shifts.read import TableShift, position, table_shifts

ZERO = Decimal("0.00")
LEVELS = ("table", "dealer", "game", "pit", "floor")
KINDS = {"day": "gaming day", "month": "month to date", "ytd": "year to date"}
CENT = Decimal("0.01")


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

    @property
    def win_to_drop_variance(self) -> Decimal | None:
        """What chance alone spreads win-to-drop by, in points squared: the win's variance
        over the drop squared (the drop counted, not drawn)."""
        if not self.drop:
            return None
        return self.win_variance / (self.drop * self.drop) * 10_000


class Change(BaseModel):
    """Win-to-drop's change from its base, in points, and the interval chance allows it."""

    points: Decimal
    low: Decimal  # the change's interval at the report's confidence
    high: Decimal

    @property
    def outside(self) -> bool:
        """The interval leaves out no change at all: a fluctuation to investigate."""
        return self.low > 0 or self.high < 0


def change(now: Figures, base: Figures | None, confidence: Decimal) -> Change | None:
    """Win-to-drop now less the base's, with its interval: the change ± z x the square root
    of the sum of both periods' win-to-drop variances (each the win's variance over its drop
    squared); None where either period has no counted drop."""
    if base is None or now.win_to_drop_pct is None or base.win_to_drop_pct is None:
        return None
    points = now.win_to_drop_pct - base.win_to_drop_pct
    spread = (now.win_to_drop_variance or Decimal(0)) + (base.win_to_drop_variance or Decimal(0))
    half = (z_score(confidence) * spread.sqrt()).quantize(CENT)
    return Change(points=points, low=points - half, high=points + half)


class Line(BaseModel):
    level: str  # table, dealer, game, pit or floor
    name: str
    figures: Figures
    base: Figures | None = None  # the base period's (`StatisticsReport.base`)
    change: Change | None = None
    band_low: Decimal = ZERO
    band_high: Decimal = ZERO
    probability: float = 1.0  # money-safe: of a departure this large by chance alone
    flags: list[str] = []
    notes: list[read.Note] = []


class StatisticsReport(BaseModel):
    title: str
    software_version: str
    property_name: str
    kind: str
    first_day: date
    last_day: date
    base: Base | None  # what win-to-drop is compared with; None: no period before to compare
    generated_at: datetime
    confidence: Decimal
    lines: list[Line]
    notes: list[read.Note]
    position: int | None = None


def _keys(level: str, item: Any) -> str:
    return "floor" if level == "floor" else str(getattr(item, level))


def _figures(stakes: list[read.StakeLine], pairs: list[read.PairLine],
             shifts: list[TableShift], level: str,
             odds: Odds) -> dict[str, Figures]:
    found: dict[str, Figures] = defaultdict(Figures)
    for line in stakes:
        bet = odds.bets[line.terms].get(line.spot, read.UNKNOWN)
        f = found[_keys(level, line)]
        f.bets += line.bets
        f.handle += line.handle
        f.theoretical_win += line.handle * bet.edge
        f.actual_win += line.table_win
    for (name, terms), lines in _by_terms(level, pairs).items():
        found[name].win_variance += read.win_variance(
            odds.rounds[terms], [(p.spot_a, p.spot_b, p.within, p.whole) for p in lines])
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
        figures.theoretical_win = figures.theoretical_win.quantize(CENT)


def _by_terms(level: str, pairs: list[read.PairLine]
              ) -> dict[tuple[str, str], list[read.PairLine]]:
    grouped: dict[tuple[str, str], list[read.PairLine]] = defaultdict(list)
    for pair in pairs:
        grouped[_keys(level, pair), pair.terms].append(pair)
    return grouped


@dataclass(frozen=True)
class Odds:
    """The odds of every set of terms a report's rounds were played under, by digest: each
    bet's, and how a round's bets move together."""

    bets: dict[str, dict[str, BetOdds]]
    rounds: dict[str, RoundOdds]


def odds_of(cursor: Any, lines: Iterable[read.StakeLine | read.PairLine]) -> Odds:
    """The odds of the terms these lines were played under; a game's standard terms for
    rounds an older version recorded without theirs."""
    lines = list(lines)
    known = read.terms(cursor, {line.terms for line in lines})
    bets = {digest: read.odds(t.game, t.rule_set, t.settings) for digest, t in known.items()}
    rounds = {digest: read.round_odds(t.game, t.rule_set, t.settings)
              for digest, t in known.items()}
    for line in lines:
        if line.terms not in bets:
            bets[line.terms] = read.default_odds(line.game)
            rounds[line.terms] = read.round_odds(line.game, None, None)
    return Odds(bets=bets, rounds=rounds)


def outside_band(figures: Figures, confidence: Decimal = CONFIDENCE) -> bool:
    """A line's win lies outside the band chance allows around its theoretical win (a line
    with no handle has no band)."""
    return bool(figures.handle) and figures.expectation.outside(figures.actual_win, confidence)


def _flags(line: Line, confidence: Decimal, base: Base | None) -> list[str]:
    f = line.figures
    flags = []
    if outside_band(f, confidence):
        flags.append(
            f"win {money(f.actual_win)} is outside the {confidence * 100:.0f}% band "
            f"{money(line.band_low)} to {money(line.band_high)} around the theoretical win "
            f"{money(f.theoretical_win)} on a handle of {money(f.handle)}: chance alone gives "
            f"a result this far off, above or below it, {chance(line.probability)}")
    moved = line.change
    if moved is not None and moved.outside and line.base is not None and base is not None:
        flags.append(
            f"win-to-drop {f.win_to_drop_pct}% moved {moved.points:+} points from "
            f"{line.base.win_to_drop_pct}% in the {base.label} ({base.first_day} to "
            f"{base.last_day}); chance alone leaves the change within {moved.low:+} to "
            f"{moved.high:+} points at {confidence * 100:.0f}%: the house rule is to investigate "
            f"(taken from Maryland's COMAR 36.05.03.25(B)(2))")
    return flags


def _noted(level: str, name: str, notes: list[read.Note]) -> list[read.Note]:
    scope = "floor" if level == "floor" else f"{level} {name}"
    return [n for n in notes if n.scope.casefold() == scope.casefold()]


class Period(BaseModel):
    """What the report reads of one period: its bets, its rounds' pairs and its shifts."""

    stakes: list[read.StakeLine]
    pairs: list[read.PairLine]
    shifts: list[TableShift]

    def figures(self, level: str, odds: Odds) -> dict[str, Figures]:
        return _figures(self.stakes, self.pairs, self.shifts, level, odds)


def read_period(cursor: Any, first: date, last: date) -> Period:
    return Period(stakes=read.stake_lines(cursor, first, last),
                  pairs=read.pair_lines(cursor, first, last),
                  shifts=table_shifts(cursor, first, last))


def statistics(conn: Connection[Any], kind: str, through: date, *, property_name: str = "",
               confidence: Decimal = CONFIDENCE,
               now: datetime | None = None) -> StatisticsReport:
    """The statistics report of the period of `kind` ending on gaming day `through`."""
    z_score(confidence)  # refuses a confidence outside (0, 1) before any reading
    first, last = period_of(kind, through)
    with conn.cursor(row_factory=dict_row) as cursor:
        period = read_period(cursor, first, last)
        if not period.stakes and not period.shifts:
            raise NotFound(f"no bet from {first} to {last} is in the ledger.")
        base = base_period(cursor, last)
        before = read_period(cursor, base.first_day, base.last_day) if base else None
        odds = odds_of(cursor, [*period.stakes, *period.pairs,
                                *(before.stakes + before.pairs if before else [])])
        notes = read.notes(cursor, first, last)
        tracked = position(cursor)
    lines = []
    for level in LEVELS:
        now_figures = period.figures(level, odds)
        then_figures = before.figures(level, odds) if before else {}
        for name in sorted(now_figures):
            f = now_figures[name]
            low, high = f.expectation.band(confidence)  # from the exact theoretical win
            then = then_figures.get(name)
            line = Line(level=level, name=name, figures=f, base=then,
                        change=change(f, then, confidence), band_low=low, band_high=high,
                        probability=f.expectation.probability(f.actual_win),
                        notes=_noted(level, name, notes))
            line.flags = _flags(line, confidence, base)
            _rounded(line.figures)
            _rounded(line.base)
            lines.append(line)
    generated = now or clock.now().astimezone()
    return StatisticsReport(
        title=f"Table games statistics, {KINDS[kind]}", software_version=software_version(),
        property_name=property_name, kind=kind, first_day=first, last_day=last, base=base,
        generated_at=generated, confidence=confidence, lines=lines, notes=notes,
        position=tracked)
