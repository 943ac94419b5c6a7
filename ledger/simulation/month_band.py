"""Each table-day of a simulated floor against its band, through the statistics report's own
figures (`ledger.reports.statistics`): a table's line of `ledger report statistics --period
day` is built from what the shift report projection keeps of its rounds (the handle and win by
spot, and the stakes of each round's bets paired, `projections.shifts.round_pairs`), and is outside
its band when `outside_band` says so.

An in-memory ledger has no projections, so the rounds' lines are gathered here from the coups
as the projection gathers them from the events: every bet settled on the layout and not
returned counts in the handle; a round's stakes by box and spot are paired with each other
(a stake with itself included), over one box (`within`) and over the round (`whole`). The
odds, the variance of the pairs, the theoretical win and the band are the report's.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from itertools import product

from ledger.audit.protection.coups import JACKPOT, Coup
from ledger.core.expectation import CONFIDENCE
from ledger.games.odds import BetOdds, RoundOdds
from ledger.games.registry import game, standard_settings
from ledger.games.settings import HouseSettings
from ledger.reports.statistics import Odds, Period, outside_band
from projections.shifts import statistics as read

ZERO = Decimal("0.00")


@dataclass(frozen=True)
class TableDay:
    """One table's gaming day: its win, the band's centre and whether the win lies outside."""

    table: str
    game: str
    gaming_day: date
    rounds: int
    handle: Decimal
    theoretical_win: Decimal
    win_variance: Decimal
    actual_win: Decimal
    outside: bool


def _terms(settings: HouseSettings) -> str:
    """A key for the terms a round was played under (the projection keeps a digest)."""
    return repr(settings)


def _lines(coups: list[Coup], day: date, pit: str
           ) -> tuple[list[read.StakeLine], list[read.PairLine], Odds]:
    stakes: dict[tuple[str, str, str, str, str], list[Decimal]] = defaultdict(
        lambda: [Decimal(0), Decimal(0), Decimal(0), Decimal(0)])
    pairs: dict[tuple[str, str, str, str, str, str], list[Decimal]] = defaultdict(
        lambda: [Decimal(0), Decimal(0)])
    bets: dict[str, dict[str, BetOdds]] = {}
    rounds: dict[str, RoundOdds] = {}
    for coup in coups:
        settings = coup.settings or standard_settings(coup.game)
        terms = _terms(settings)
        if terms not in bets:
            rules = game(coup.game)
            bets[terms] = {bet.spot: bet for bet in rules.bet_odds(settings)}
            rounds[terms] = rules.round_odds(settings)
        counted = [w for w in coup.wagers if w.spot != JACKPOT and w.outcome != "returned"]
        laid: dict[tuple[int, str], Decimal] = defaultdict(Decimal)
        for w in counted:
            line = stakes[coup.table, coup.game, coup.dealer, terms, w.spot]
            line[0] += 1
            line[1] += w.stake
            line[2] += w.stake * w.stake
            line[3] -= w.result  # the house's win: what the bet gave the player, negated
            laid[w.box, w.spot] += w.stake
        for ((box_a, spot_a), a), ((box_b, spot_b), b) in product(laid.items(), repeat=2):
            pair = pairs[coup.table, coup.game, coup.dealer, terms, spot_a, spot_b]
            pair[0] += a * b if box_a == box_b else 0
            pair[1] += a * b
    return ([read.StakeLine(gaming_day=day, pit=pit, shift="day", table=t, game=g, dealer=d,
                            terms=k, spot=s, bets=int(n), handle=h, sum_of_squares=q,
                            table_win=w)
             for (t, g, d, k, s), (n, h, q, w) in stakes.items()],
            [read.PairLine(gaming_day=day, pit=pit, shift="day", table=t, game=g, dealer=d,
                           terms=k, spot_a=a, spot_b=b, within=i, whole=o)
             for (t, g, d, k, a, b), (i, o) in pairs.items()],
            Odds(bets=bets, rounds=rounds))


def table_days(coups: list[Coup], confidence: Decimal = CONFIDENCE) -> list[TableDay]:
    """Every table-day of the coups, each against its band at `confidence`, as the statistics
    report of that gaming day draws it for the table's line."""
    by_day: dict[date, list[Coup]] = defaultdict(list)
    for coup in coups:
        if coup.gaming_day is not None:
            by_day[coup.gaming_day].append(coup)
    found = []
    for day in sorted(by_day):
        stakes, pairs, odds = _lines(by_day[day], day, pit="?")
        figures = Period(stakes=stakes, pairs=pairs, shifts=[]).figures("table", odds)
        games = {c.table: c.game for c in by_day[day]}
        played: dict[str, int] = defaultdict(int)
        for coup in by_day[day]:
            played[coup.table] += 0 if coup.voided else 1
        for table, f in sorted(figures.items()):
            found.append(TableDay(table, games[table], day, played[table], f.handle,
                                  f.theoretical_win, f.win_variance, f.actual_win,
                                  outside_band(f, confidence)))
    return found


@dataclass(frozen=True)
class GameBand:
    game: str
    table_days: int
    outside: int

    @property
    def share(self) -> float:  # money-safe: a share of table-days
        return self.outside / self.table_days if self.table_days else 0.0


def by_game(days: list[TableDay]) -> list[GameBand]:
    """Per game, how many table-days, and how many of them outside their band."""
    count: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for d in days:
        count[d.game][0] += 1
        count[d.game][1] += d.outside
    return [GameBand(g, n, out) for g, (n, out) in sorted(count.items())]
