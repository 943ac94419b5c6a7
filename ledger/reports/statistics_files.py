"""The statistics report as CSV (a header block naming the report, then a row a line), JSON and
in the terminal. Every figure is exact: money to the avo, percentages to the hundredth."""

from __future__ import annotations

import json
from typing import Any

from rich import box
from rich.console import Console

from ledger.core.formatting import (
    CURRENCY,
    TIME_LABEL,
    amount,
    chance,
    clock,
    exact_json,
    probability_text,
)
from ledger.presentation.columns import Grid, figure, text
from ledger.presentation.csv_table import csv_table, named
from ledger.presentation.wording import line_name
from ledger.reports.base import Base
from ledger.reports.statistics import Line, StatisticsReport

COLUMNS = (
    "level", "name", "bets", "handle", "theoretical_win", "theoretical_hold_pct", "actual_win",
    "actual_hold_pct", "variance_pct", "projected_variance", "band_low", "band_high",
    "probability", "drop", "accounting_win", "win_to_drop_pct", "shifts_uncounted",
    "base_handle", "base_actual_win", "base_drop", "base_accounting_win",
    "base_win_to_drop_pct", "change_pct", "change_low", "change_high", "flags", "notes",
)


# Every line is the exact sum rounded once, so a line may differ by an avo from the sum of the
# rounded lines above it; a reader is told once, under the table.
ROUNDING = ("each line is rounded to the avo once, from exact amounts: lines may differ from "
            "the sum of the lines above by an avo")


def _text(value: Any) -> str:
    return "" if value is None else str(value)


def cells(line: Line) -> dict[str, Any]:
    f, base = line.figures, line.base
    return {
        "level": line.level, "name": line.name, "bets": f.bets, "handle": f.handle,
        "theoretical_win": f.theoretical_win, "theoretical_hold_pct": f.theoretical_hold_pct,
        "actual_win": f.actual_win, "actual_hold_pct": f.actual_hold_pct,
        "variance_pct": f.variance_pct, "projected_variance": f.dollar_variance,
        "band_low": line.band_low, "band_high": line.band_high,
        "probability": probability_text(line.probability), "drop": f.drop,
        "accounting_win": f.accounting_win, "win_to_drop_pct": f.win_to_drop_pct,
        "shifts_uncounted": f.shifts_uncounted,
        "base_handle": base.handle if base else None,
        "base_actual_win": base.actual_win if base else None,
        "base_drop": base.drop if base else None,
        "base_accounting_win": base.accounting_win if base else None,
        "base_win_to_drop_pct": base.win_to_drop_pct if base else None,
        "change_pct": line.change.points if line.change else None,
        "change_low": line.change.low if line.change else None,
        "change_high": line.change.high if line.change else None,
        "flags": " | ".join(line.flags),
        "notes": " | ".join(f"{n.noted_by}: {n.finding}" for n in line.notes),
    }


def header(report: StatisticsReport) -> list[tuple[str, str]]:
    return [
        ("report", report.title), ("property", report.property_name or "-"),
        ("software", f"round-ledger {report.software_version}"),
        ("period", f"gaming days {report.first_day} to {report.last_day}"),
        ("base period", base_words(report)),
        ("generated", f"{clock(report.generated_at)} {TIME_LABEL}"),
        ("confidence", f"{report.confidence * 100:.0f}%"),
        ("currency", "MOP"),
        ("rounding", ROUNDING),
    ]


def base_words(report: StatisticsReport) -> str:
    """The base period as a header's value: `the previous business year, gaming days
    2025-01-01 to 2025-12-31`, or why there is none."""
    return period_words(report.base) or f"none: {NO_BASE}"


def base_sentence(report: StatisticsReport) -> str:
    """What win-to-drop is compared with, as a sentence."""
    words = period_words(report.base)
    if words is None:
        return f"win-to-drop is compared with nothing ({NO_BASE})"
    return f"win-to-drop is compared with {words}"


NO_BASE = "the ledger's first month has no period before it"


def period_words(base: Base | None) -> str | None:
    """`the previous business year, gaming days 2025-01-01 to 2025-12-31`; None: no base.

    >>> from datetime import date
    >>> from ledger.reports.base import previous_month
    >>> period_words(previous_month(date(2026, 3, 10)))
    'the previous month (initial year of operations), gaming days 2026-02-01 to 2026-02-28'
    """
    if base is None:
        return None
    return f"the {base.label}, gaming days {base.first_day} to {base.last_day}"


def change_words(line: Line) -> str:
    """`+1.20 (-3.10 to +5.50)`: the change of win-to-drop and its interval, in points."""
    return " ".join(change_parts(line))


def change_parts(line: Line) -> tuple[str, ...]:
    """The change and its interval apart (`+1.20`, `(-3.10 to +5.50)`), for a page to wrap
    between them, never inside either."""
    moved = line.change
    if moved is None:
        return ("no base" if line.base is None else "no drop",)
    return f"{moved.points:+}", f"({moved.low:+} to {moved.high:+})"


def to_csv(report: StatisticsReport) -> str:
    """Headed in words, a game by its name (`to_json` keeps the codes, the words beside)."""
    return csv_table(header(report), COLUMNS,
                     (cells(line) | {"name": named(line.level, line.name)}
                      for line in report.lines))


def to_json(report: StatisticsReport) -> str:
    """The report for machines, as every report's JSON is written (`exact_json`)."""
    data = exact_json(report.model_dump(exclude={"lines"}))
    data["lines"] = [exact_json(cells(line))
                     | {"said": line_name(line.level, line.name),
                        "notes": exact_json([n.model_dump() for n in line.notes])}
                     for line in report.lines]
    return json.dumps(data, indent=2, ensure_ascii=False)


def to_rich(report: StatisticsReport, console: Console, *, wide: bool = False) -> None:
    """Too narrow a terminal leaves out the base first, then the chance, the change against
    the base, win-to-drop, the band and hold on the handle: never the handle, the theoretical
    or the actual win."""
    console.print(f"[bold]{report.title}[/]: gaming days {report.first_day} to "
                  f"{report.last_day} (generated {clock(report.generated_at)} {TIME_LABEL}, "
                  f"round-ledger {report.software_version}; amounts in {CURRENCY}); "
                  f"{base_sentence(report)}", highlight=False)
    grid = Grid(text(""), figure("handle"), figure("theoretical"), figure("actual"),
                figure("band", 2), figure("hold on handle", 1), figure("drop", 3),
                figure("win-to-drop", 3),
                figure("base", 6), figure("change (interval)", 4), figure("chance", 5),
                box=box.SIMPLE_HEAD)
    for line in report.lines:
        f = line.figures
        base = line.base.win_to_drop_pct if line.base else None
        grid.add_row(
            line_name(line.level, line.name),
            amount(f.handle), amount(f.theoretical_win), amount(f.actual_win),
            f"{amount(line.band_low)} to {amount(line.band_high)}",
            f"{_text(f.actual_hold_pct)}% (theo {_text(f.theoretical_hold_pct)}%)",
            amount(f.drop),
            f"{_text(f.win_to_drop_pct)}%" if f.win_to_drop_pct is not None else "-",
            f"{base}%" if base is not None else "no base",
            change_words(line), chance(line.probability), style="red" if line.flags else None)
    grid.print(console, wide=wide)
    console.print(ROUNDING, highlight=False)
    for line in report.lines:
        for flag in line.flags:
            console.print(f"[red]flag[/] {line_name(line.level, line.name)}: {flag}",
                          highlight=False)
    for note in report.notes:
        console.print(f"note ({note.scope}, {note.first_day} to {note.last_day}) by "
                      f"{note.noted_by} on {note.subject}: {note.finding}", highlight=False)
