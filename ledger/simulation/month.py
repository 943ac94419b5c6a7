"""A month of a simulated floor on an in-memory ledger, with game protection's planted cases
beside fair players, and what the reports make of it (`scripts/simulate-month`).

Each gaming day the ledger's one clock (`ledger.core.clock`) is set to the end of that day's
shift and the floor plays it (`run_floor`): the same signed commands, the same door and
handlers as a property's ledger, its events kept in memory rather than in PostgreSQL. The
informed bettor at BAC-01 and the misdealing dealer at SP-01 play every day; the lucky bettor
at BAC-02 plays every day and has their run of six coups on the month's middle day. Then each
table-day is held against its 95% band as the statistics report draws it
(`ledger.simulation.month_band`), and the month's coups go through the game-protection report
(`ledger.audit.protection.report.report_of`).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, timedelta

from rich.console import Console

from ledger.application.administration import bootstrap_registry
from ledger.application.bus import EVERY_AREA, Bus
from ledger.application.ledger import Ledger, LedgerApplication
from ledger.audit.protection.coups import Coup, coup_of
from ledger.audit.protection.report import ProtectionReport, by_chance, report_of, to_rich
from ledger.audit.protection.signals import ALPHA, Signal
from ledger.core.clock import FixedClock, running
from ledger.core.errors import InvalidInput
from ledger.domain.round import round_id
from ledger.domain.table import table_id
from ledger.identity.keyring import Keyring
from ledger.presentation.wording import game
from ledger.simulation.bias import STREAK, Bias
from ledger.simulation.floor import floor_plan, run_floor, shift_start
from ledger.simulation.month_band import GameBand, TableDay, by_game, table_days
from ledger.simulation.staffing import FloorStaff
from ledger.simulation.table import TableSpec

SHIFT_HOURS = 8
PLANTED = {"BAC-01": "informed-bettor", "BAC-02": "lucky-streak", "SP-01": "misdealer"}
INFORMED_SHARE = 0.3  # money-safe: the share of coups the informed bettor sees coming
CAUGHT = {"informed-bettor": ("player INFORMED-BAC-01", "informed"),
          "misdealer": ("dealer D-SP-01-2", "irregularity")}
TOUCHED = ("INFORMED", "BAC-01", "D-SP-01-2", "LUCKY", "box 7 at BAC-02")
"""Subjects a planted case plays in (its player, its box, its table, its dealer): the rest are
fair by construction."""


@dataclass(frozen=True)
class MonthPlan:
    tables: int = 28
    days: int = 30
    rounds: int = 60  # a table-day's rounds
    seed: int = 20261101
    first_day: date = date(2026, 11, 1)
    irregularity_rate: float = 0.05  # money-safe: a probability

    def check(self) -> None:
        for name, value in (("tables", self.tables), ("days", self.days),
                            ("rounds", self.rounds)):
            if value < 1:
                raise InvalidInput(f"a month needs at least one of its {name}, not {value}.")

    @property
    def streak_day(self) -> date:
        return self.first_day + timedelta(days=self.days // 2)


@dataclass
class Month:
    plan: MonthPlan
    floor: list[TableSpec]
    planted: dict[str, str]
    coups: list[Coup] = field(default_factory=list)
    days: list[TableDay] = field(default_factory=list)  # each against its band, day by day
    errors: list[str] = field(default_factory=list)
    seconds: float = 0.0  # money-safe: the wall time of the play
    cpu_seconds: float = 0.0  # money-safe: this process's processor time of the play


def in_memory_ledger() -> Ledger:
    """The ledger with its events kept in this process's memory (no database)."""
    app = LedgerApplication(env={"PERSISTENCE_MODULE": "eventsourcing.popo",
                                 "AGGREGATE_CACHE_MAXSIZE": "5000"})
    return Ledger(app, bus=Bus(EVERY_AREA))


def _close_of(day: date) -> FixedClock:
    """The ledger's clock at the end of the day shift of `day`: every command of it past."""
    return FixedClock(shift_start(day) + timedelta(hours=SHIFT_HOURS))


def _biases(plan: MonthPlan, planted: dict[str, str], day: date) -> dict[str, Bias]:
    biases = {}
    for code, kind in planted.items():
        if kind == "informed-bettor":
            biases[code] = Bias(kind, INFORMED_SHARE)
        elif kind == "lucky-streak":
            biases[code] = Bias(kind, streak=day == plan.streak_day)
        else:
            biases[code] = Bias(kind)
    return biases


def play_month(plan: MonthPlan, on_day: Callable[[date, Month], None] = lambda d, m: None
               ) -> Month:
    """The month played, a gaming day at a time, each day's coups read back from the ledger
    and its table-days held against their band as it ends (`on_day` hears of each)."""
    plan.check()
    ledger = in_memory_ledger()
    keyring = Keyring(None)
    admin, console = keyring.credential("staff", "SIM-ADMIN"), keyring.credential(
        "terminal", "SIM-CONSOLE")
    with running(_close_of(plan.first_day - timedelta(days=1))):
        bootstrap_registry(ledger, admin, console, "Simulation administrator")
    staff = FloorStaff.under(ledger, admin, console, None)
    floor = floor_plan(plan.tables)
    codes = {spec.code for spec in floor}
    month = Month(plan, floor, {c: k for c, k in PLANTED.items() if c in codes})
    started, cpu = time.perf_counter(), time.process_time()
    read_to = dict.fromkeys(codes, 1)  # each table's next round to read
    for n in range(plan.days):
        day = plan.first_day + timedelta(days=n)
        with running(_close_of(day)):
            result = run_floor(ledger, staff, floor, rounds=plan.rounds,
                               seed=plan.seed * 1000 + n, day=day,
                               irregularity_rate=plan.irregularity_rate,
                               bias=_biases(plan, month.planted, day))
        month.errors += [f"{day}: {error}" for error in result.errors]
        played = _coups(ledger, read_to)
        month.coups += played
        month.days += table_days(played)
        month.seconds = time.perf_counter() - started
        month.cpu_seconds = time.process_time() - cpu
        on_day(day, month)
    return month


def _coups(ledger: Ledger, read_to: dict[str, int]) -> list[Coup]:
    """The coups recorded since the last reading, table by table (`read_to` moves on)."""
    coups = []
    for code, number in read_to.items():
        while ledger.exists(rid := round_id(table_id(code), number)):
            coup = coup_of(ledger.stream_events(rid))  # None: a demonstration coup
            coups += [coup] if coup is not None else []
            number += 1
        read_to[code] = number
    return coups


@dataclass(frozen=True)
class Verdict:
    """What the month shows: the band per game, the protection report, and its tests split
    into the planted cases and the fair subjects."""

    bands: list[GameBand]
    days: list[TableDay]
    report: ProtectionReport
    fair: list[Signal]
    lucky: list[Signal]


def judge(month: Month) -> Verdict:
    plan = month.plan
    last = plan.first_day + timedelta(days=plan.days - 1)
    report = report_of(month.coups, "month", last, "day", plan.first_day, last,
                       now=_close_of(last).at, property_name="simulated floor")
    fair = [t for t in report.tests if not any(mark in t.subject for mark in TOUCHED)]
    lucky = [t for t in report.tests if "LUCKY" in t.subject or t.subject == "box 7 at BAC-02"]
    fair_days = [d for d in month.days if d.table not in month.planted]
    return Verdict(by_game(fair_days), month.days, report, fair, lucky)


def progress(day: date, month: Month) -> str:
    """A line for each day played: its rounds, the rate so far, the band per game so far."""
    rounds = sum(1 for c in month.coups if c.gaming_day == day)
    bands = "; ".join(f"{game(b.game)} {b.outside}/{b.table_days}" for b in by_game(month.days))
    errors = "".join(f"\n  error {e}" for e in month.errors if e.startswith(f"{day}: "))
    return (f"{day}: {rounds:,} rounds ({len(month.coups) / max(month.seconds, 1e-9):,.1f} "
            f"rounds/s so far); table-days outside their band: {bands}{errors}")


def show(month: Month, verdict: Verdict, console: Console) -> None:
    """The month's sizes and rate, the band per game, the protection report and the cases."""
    plan, rounds = month.plan, len(month.coups)
    console.print(f"[bold]A simulated month[/]: {len(month.floor)} tables, {plan.days} gaming "
                  f"days from {plan.first_day}, {plan.rounds} rounds a table-day, seed "
                  f"{plan.seed}, irregularity rate {plan.irregularity_rate}", highlight=False)
    console.print(f"played {rounds:,} rounds in {month.seconds:,.0f} s: "
                  f"{rounds / max(month.seconds, 1e-9):,.1f} rounds/s "
                  f"({rounds / max(month.cpu_seconds, 1e-9):,.1f} a second of processor time)",
                  highlight=False)
    for error in month.errors:
        console.print(f"[red]error[/] {error}", highlight=False)
    console.print("\n[bold]Table-days outside their 95% band[/] (the statistics report's "
                  "band of a table's gaming day; about 5% expected), the tables of fair play "
                  f"(the planted cases' tables, {', '.join(month.planted)}, apart)",
                  highlight=False)
    for band in verdict.bands:
        inside = "within" if 0.03 <= band.share <= 0.07 else "outside"
        console.print(f"  {game(band.game)}: {band.outside} of {band.table_days} table-days "
                      f"({band.share:.1%}; {inside} 3% to 7%)", highlight=False)
    for table in month.planted:
        days = [d for d in verdict.days if d.table == table]
        console.print(f"  {table} (planted): {sum(d.outside for d in days)} of {len(days)} "
                      "table-days", highlight=False)
    console.print("\n[bold]Game protection, the month[/]", highlight=False)
    to_rich(verdict.report, console, shown=10)
    _cases(month, verdict, console)


def _cases(month: Month, verdict: Verdict, console: Console) -> None:
    console.print("\n[bold]The planted cases[/]", highlight=False)
    tests = verdict.report.tests
    for code, kind in month.planted.items():
        if kind in CAUGHT:
            subject, signal = CAUGHT[kind]
            found = [t for t in tests if t.subject == subject and t.signal == signal]
            said = (f"{'flagged' if found[0].flagged else 'not flagged'} ({found[0].seen}; by "
                    f"chance {by_chance(found[0].adjusted)} over all tests)"
                    if found else "not tested (too few rounds)")
            console.print(f"  {kind} at {code}: {subject}: {said}", highlight=False)
    if "BAC-02" in month.planted:
        flagged = [t.subject for t in verdict.lucky if t.flagged]
        run = (f"six coups won running on {month.plan.streak_day}"
               if month.plan.rounds >= STREAK.stop else
               f"no run: a table-day needs {STREAK.stop} rounds for it")
        console.print(f"  lucky-streak at BAC-02 ({run}): {len(verdict.lucky)} tests, "
                      f"{'flagged: ' + ', '.join(flagged) if flagged else 'none flagged'}",
                      highlight=False)
    fair = verdict.fair
    below = sum(t.probability <= 0.05 for t in fair)
    flagged = [t.subject for t in fair if t.flagged]
    console.print(f"  fair players, boxes, tables and dealers: {len(fair)} tests, "
                  f"{len(flagged)} flagged{': ' + ', '.join(flagged) if flagged else ''} "
                  f"(Holm's correction: a fair floor shows any flag at most {ALPHA:.0%} of "
                  f"the time); {below} below 5% uncorrected "
                  f"({below / max(len(fair), 1):.1%}; about 5% or fewer expected)",
                  highlight=False)
