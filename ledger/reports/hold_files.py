"""The hold report as CSV (a header block, then a row a line), JSON and in the terminal."""

from __future__ import annotations

import json
from typing import Any

from rich import box
from rich.console import Console

from ledger.core.formatting import TIME_LABEL, amount, chance, clock, exact_json, probability_text
from ledger.presentation.columns import Grid, figure, text
from ledger.presentation.csv_table import csv_table, named
from ledger.presentation.wording import line_name
from ledger.reports.hold import HoldLine, HoldReport

COLUMNS = ("period", "first_day", "last_day", "level", "name", "bets", "handle",
           "theoretical_win", "theoretical_hold_pct", "actual_win", "actual_hold_pct",
           "variance_pct", "hold_low_pct", "hold_high_pct", "probability", "flag")


def cells(line: HoldLine) -> dict[str, Any]:
    f = line.figures
    return {"period": line.period, "first_day": line.first_day, "last_day": line.last_day,
            "level": line.level, "name": line.name, "bets": f.bets, "handle": f.handle,
            "theoretical_win": f.theoretical_win, "theoretical_hold_pct": f.theoretical_hold_pct,
            "actual_win": f.actual_win, "actual_hold_pct": f.actual_hold_pct,
            "variance_pct": f.variance_pct, "hold_low_pct": line.hold_low,
            "hold_high_pct": line.hold_high, "probability": probability_text(line.probability),
            "flag": line.flag}


def header(report: HoldReport) -> list[tuple[str, str]]:
    return [("report", report.title), ("property", report.property_name or "-"),
            ("software", f"round-ledger {report.software_version}"),
            ("through", f"gaming day {report.through}"),
            ("generated", f"{clock(report.generated_at)} {TIME_LABEL}"),
            ("confidence", f"{report.confidence * 100:.0f}%"), ("currency", "MOP")]


def _text(value: Any) -> str:
    return "" if value is None else str(value)


def to_csv(report: HoldReport) -> str:
    """Headed in words, a game by its name (`to_json` keeps the codes, the words beside)."""
    return csv_table(header(report), COLUMNS,
                     (cells(line) | {"name": named(line.level, line.name)}
                      for line in report.lines))


def to_json(report: HoldReport) -> str:
    """The report for machines, as every report's JSON is written (`exact_json`)."""
    data = exact_json(report.model_dump(exclude={"lines"}))
    data["lines"] = [exact_json(cells(line)) | {"said": line_name(line.level, line.name)}
                     for line in report.lines]
    return json.dumps(data, indent=2, ensure_ascii=False)


def to_rich(report: HoldReport, console: Console, *, wide: bool = False) -> None:
    """A game by its name (`Fortune 8`). Too narrow a terminal leaves out the band first, then
    the chance, then the variance: never the handle, the theoretical or the actual hold."""
    console.print(f"[bold]{report.title}[/]: through gaming day {report.through} (generated "
                  f"{clock(report.generated_at)} {TIME_LABEL}, round-ledger "
                  f"{report.software_version})", highlight=False)
    grid = Grid(text("period"), text(""), figure("handle"), figure("theoretical\nhold"),
                figure("actual\nhold"), figure("variance", 1), figure("band of hold", 3),
                figure("chance", 2), box=box.SIMPLE_HEAD)
    for line in report.lines:
        f = line.figures
        grid.add_row(
            line.period, line_name(line.level, line.name),
            amount(f.handle), f"{_text(f.theoretical_hold_pct)}%", f"{_text(f.actual_hold_pct)}%",
            f"{_text(f.variance_pct)} pts", f"{_text(line.hold_low)}% to {_text(line.hold_high)}%",
            chance(line.probability), style="red" if line.flag else None)
    grid.print(console, wide=wide)
    if not report.flagged:
        console.print("nothing to investigate: every hold is within its band", highlight=False)
    for line in report.flagged:
        console.print(f"[red]investigate[/] {line.flag}", highlight=False)
