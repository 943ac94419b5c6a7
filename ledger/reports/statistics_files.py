"""The statistics report as CSV (a header block naming the report, then a row a line), JSON and
in the terminal. Every figure is exact: money to the avo, percentages to the hundredth."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

from rich import box
from rich.console import Console
from rich.table import Table as RichTable

from ledger.core.formatting import TIME_LABEL, amount, chance, clock
from ledger.presentation.wording import line_name
from ledger.reports.statistics import Line, StatisticsReport

COLUMNS = (
    "level", "name", "bets", "handle", "theoretical_win", "theoretical_hold_pct", "actual_win",
    "actual_hold_pct", "variance_pct", "projected_variance", "band_low", "band_high",
    "probability", "drop", "accounting_win", "win_to_drop_pct", "shifts_uncounted",
    "last_year_handle", "last_year_actual_win", "last_year_drop", "last_year_accounting_win",
    "last_year_win_to_drop_pct", "swing_pct", "flags", "notes",
)


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
        "probability": f"{line.probability:.6f}", "drop": f.drop,
        "accounting_win": f.accounting_win, "win_to_drop_pct": f.win_to_drop_pct,
        "shifts_uncounted": f.shifts_uncounted,
        "last_year_handle": base.handle if base else None,
        "last_year_actual_win": base.actual_win if base else None,
        "last_year_drop": base.drop if base else None,
        "last_year_accounting_win": base.accounting_win if base else None,
        "last_year_win_to_drop_pct": base.win_to_drop_pct if base else None,
        "swing_pct": line.swing_pct, "flags": " | ".join(line.flags),
        "notes": " | ".join(f"{n.noted_by}: {n.finding}" for n in line.notes),
    }


def header(report: StatisticsReport) -> list[tuple[str, str]]:
    return [
        ("report", report.title), ("property", report.property_name or "-"),
        ("software", f"round-ledger {report.software_version}"),
        ("period", f"gaming days {report.first_day} to {report.last_day}"),
        ("same period last year", f"{report.base_first_day} to {report.base_last_day}"),
        ("generated", f"{clock(report.generated_at)} {TIME_LABEL}"),
        ("confidence", f"{report.confidence * 100:.0f}%"),
        ("swing threshold", f"{report.swing_threshold} points of win-to-drop"),
        ("currency", "MOP"),
    ]


def to_csv(report: StatisticsReport) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    for key, value in header(report):
        writer.writerow([key, value])
    writer.writerow([])
    writer.writerow(COLUMNS)
    for line in report.lines:
        row = cells(line)
        writer.writerow([_text(row[column]) for column in COLUMNS])
    return out.getvalue()


def to_json(report: StatisticsReport) -> str:
    data = report.model_dump(mode="json", exclude={"lines"})
    data["lines"] = [{k: (None if v is None else str(v) if not isinstance(v, int | str) else v)
                      for k, v in cells(line).items()}
                     | {"said": line_name(line.level, line.name),
                        "notes": [n.model_dump(mode="json") for n in line.notes]}
                     for line in report.lines]
    return json.dumps(data, indent=2, ensure_ascii=False)


def to_rich(report: StatisticsReport, console: Console) -> None:
    console.print(f"[bold]{report.title}[/]: gaming days {report.first_day} to "
                  f"{report.last_day} (generated {clock(report.generated_at)} {TIME_LABEL}, "
                  f"round-ledger {report.software_version})", highlight=False)
    grid = RichTable(box=box.SIMPLE_HEAD)
    for column in ("", "handle", "theoretical", "actual", "band", "hold on handle",
                   "drop", "win-to-drop", "last year", "chance"):
        grid.add_column(column, justify="left" if not column else "right")
    for line in report.lines:
        f = line.figures
        base = line.base.win_to_drop_pct if line.base else None
        grid.add_row(
            line_name(line.level, line.name),
            amount(f.handle), amount(f.theoretical_win), amount(f.actual_win),
            f"{amount(line.band_low)} to {amount(line.band_high)}",
            f"{_text(f.actual_hold_pct)}% (theo {_text(f.theoretical_hold_pct)}%)",
            amount(f.drop), f"{_text(f.win_to_drop_pct)}%" if f.win_to_drop_pct is not None else "-",
            f"{base}%" if base is not None else "-",
            chance(line.probability), style="red" if line.flags else None)
    console.print(grid)
    for line in report.lines:
        for flag in line.flags:
            console.print(f"[red]flag[/] {line_name(line.level, line.name)}: {flag}",
                          highlight=False)
    for note in report.notes:
        console.print(f"note ({note.scope}, {note.first_day} to {note.last_day}) by "
                      f"{note.noted_by}: {note.subject}: {note.finding}", highlight=False)
