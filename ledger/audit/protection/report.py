"""`ledger report protection`: the game-protection signals of a shift, a gaming day or a month
to date, and the floor's alerts (`floor_alerts`), read from the stored events."""

from __future__ import annotations

import json
from datetime import date, datetime
from typing import Any

from psycopg import Connection
from pydantic import BaseModel
from rich import box
from rich.console import Console
from rich.table import Table as RichTable

from ledger import software_version
from ledger.audit.protection.coups import Coup
from ledger.audit.protection.reading import period_coups
from ledger.audit.protection.signals import ALPHA, SIGNALS, Finding, Signal, every_test, findings
from ledger.core.errors import InvalidInput
from ledger.core.formatting import TIME_LABEL, chance, clock, counted, money
from ledger.domain.shift_schedule import ShiftSchedule
from ledger.presentation.wording import void_reason

PERIODS = {"shift": "shift", "day": "gaming day", "month": "month to date"}
ONE_SIDED = ("Each chance counts one side, the players' (or more irregularities, more prizes): "
             "the statistics report's band counts a table's result on both sides, so its "
             "chance for the same result is twice this one.")
CORRECTION = ("Holm's step-down method over every test of the report: the chance that a fair "
              "floor shows any flag is at most {alpha:.0%}")


class ProtectionReport(BaseModel):
    title: str
    property_name: str
    period: str  # shift, day or month
    first_day: date
    last_day: date
    shift: str | None
    generated_at: datetime
    software_version: str
    alpha: float  # money-safe: the family-wise false-alarm rate
    correction: str
    rounds: int  # finished: played to settlement or void
    voided: int
    tests: list[Signal]  # the most unlikely first
    findings: list[Finding]

    @property
    def played(self) -> int:
        """The rounds played to settlement, as the shift report counts them beside the void."""
        return self.rounds - self.voided

    @property
    def flags(self) -> list[Signal]:
        return [t for t in self.tests if t.flagged]

    def tested(self, signal: str) -> int:
        return sum(1 for t in self.tests if t.signal == signal)


FLOOR = 1e-6  # money-safe: below it a normal tail's figure means no more than "very rare"


def by_chance(probability: float) -> str:  # money-safe: a probability
    """A test's chance as people read it, no finer than the approximations allow.

    >>> by_chance(0.004), by_chance(3e-12)
    ('once in 250 times', 'less than once in a million times')
    """
    return chance(probability) if probability >= FLOOR else "less than once in a million times"


class Alert(BaseModel):
    """One line for the floor page: what was seen, where, and how unlikely it is by chance."""

    signal: str
    subject: str
    text: str


def window(kind: str, on: date, shift: str, schedule: ShiftSchedule
           ) -> tuple[date, date, datetime, datetime]:
    """The gaming days and the moments a period covers: a shift of `on`, the gaming day `on`,
    or its month to date."""
    if kind == "shift":
        slot = schedule.slot(on, shift)
        return on, on, slot.starts_at, slot.ends_at
    if kind in ("day", "month"):
        first = on.replace(day=1) if kind == "month" else on
        return (first, on, schedule.slot(first, schedule.names[0]).starts_at,
                schedule.slot(on, schedule.names[-1]).ends_at)
    raise InvalidInput(f"unknown period '{kind}': give shift, day or month.")


def protection_report(conn: Connection[Any], kind: str, on: date, shift: str,
                      schedule: ShiftSchedule, *, now: datetime, property_name: str = "",
                      alpha: float = ALPHA) -> ProtectionReport:  # money-safe: a probability
    """Every signal of the period of `kind` (shift `shift` of gaming day `on`, the day, or the
    month to date), with Holm's correction over all of them."""
    first, last, starts, ends = window(kind, on, shift, schedule)
    return report_of(period_coups(conn, first, last, starts, ends), kind, on, shift, first,
                     last, now=now, property_name=property_name, alpha=alpha)


def report_of(coups: list[Coup], kind: str, on: date, shift: str, first: date, last: date, *,
              now: datetime, property_name: str = "",
              alpha: float = ALPHA) -> ProtectionReport:  # money-safe: a probability
    """The report of the period's coups, wherever they were read from (the stored events, or
    a simulated floor's ledger in memory)."""
    tests = sorted(every_test(coups, alpha=alpha), key=lambda t: (t.adjusted, t.probability))
    label = f"{PERIODS[kind]} {on}" + (f" {shift}" if kind == "shift" else "")
    return ProtectionReport(
        title=f"Game protection, {label}", property_name=property_name, period=kind,
        first_day=first, last_day=last, shift=shift if kind == "shift" else None,
        generated_at=now, software_version=software_version(), alpha=alpha,
        correction=CORRECTION.format(alpha=alpha), rounds=len(coups),
        voided=sum(1 for c in coups if c.voided), tests=tests, findings=findings(coups))


def floor_alerts(conn: Connection[Any], schedule: ShiftSchedule, now: datetime,
                 alpha: float = ALPHA) -> list[Alert]:  # money-safe: a probability
    """The floor page's protection alerts: the flags and void findings of the gaming day in
    force so far, the most unlikely first."""
    slot = schedule.locate(now)
    report = protection_report(conn, "day", slot.gaming_day, slot.shift, schedule, now=now,
                               alpha=alpha)
    return alerts(report)


def alerts(report: ProtectionReport) -> list[Alert]:
    said = [Alert(signal=t.signal, subject=t.subject,
                  text=f"{t.subject}: {SIGNALS[t.signal]}: {t.seen}; by chance "
                       f"{by_chance(t.probability)} ({by_chance(t.adjusted)} over the "
                       f"{len(report.tests):,} tests)")
            for t in report.flags]
    return said + [Alert(signal="void", subject=f.round, text=finding_text(f))
                   for f in report.findings]


def finding_text(f: Finding) -> str:
    decided = []
    if f.lost:
        decided.append(f"lost {counted(f.lost, 'bet')} ({money(f.lost_stakes)})")
    if f.won:
        decided.append(f"won {counted(f.won, 'bet')} ({money(f.won_stakes)})")
    reason = void_reason(f.reason) if f.reason else "no reason given"
    return (f"{f.round} was voided by {f.voided_by} ({reason}; dealer "
            f"{f.dealer}) after its cards had {' and '.join(decided)}: the void returned them")


def to_json(report: ProtectionReport) -> str:
    data = report.model_dump(mode="json")
    data["flags"] = [t.model_dump(mode="json") for t in report.flags]
    data["tested"] = {signal: report.tested(signal) for signal in SIGNALS}
    return json.dumps(data, indent=2, ensure_ascii=False)


def to_rich(report: ProtectionReport, console: Console, shown: int = 15) -> None:
    rounds = f"{counted(report.played, 'round')} played ({report.voided:,} void)"
    console.print(f"[bold]{report.title}[/]: {rounds}, "
                  f"{counted(len(report.tests), 'test')} (generated {clock(report.generated_at)} "
                  f"{TIME_LABEL}, round-ledger {report.software_version})", highlight=False)
    console.print(f"Flag: {report.correction}.", highlight=False)
    console.print(ONE_SIDED, highlight=False)
    grid = RichTable(box=box.SIMPLE_HEAD)
    for column in ("signal", "subject", "seen", "by chance", "over all tests"):
        grid.add_column(column)
    for test in report.tests[:shown]:
        grid.add_row(test.signal, test.subject, test.seen, by_chance(test.probability),
                     by_chance(test.adjusted), style="red" if test.flagged else None)
    console.print(grid)
    for test in report.flags:
        console.print(f"[red]flag[/] {test.subject}: {SIGNALS[test.signal]}", highlight=False)
    if not report.flags:
        console.print("no flag", highlight=False)
    for finding in report.findings:
        console.print(f"[red]void[/] {finding_text(finding)}", highlight=False)
