"""The gaming-day report and the month-to-date summary in the terminal, as CSV and as JSON."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable
from typing import Any

from rich import box
from rich.console import Console

from ledger.core import formatting
from ledger.core.formatting import CURRENCY, amount, decimal_text, exact_json
from ledger.presentation.columns import Grid, figure, text
from ledger.presentation.csv_table import heading, named
from ledger.presentation.wording import game
from ledger.reports.shift import HOLD_ON_DROP, day_state
from projections.shifts.period_reports import GamingDayView, MonthToDateView
from projections.shifts.read import Rollup

COLUMNS = ("name", "tables", "rounds_played", "rounds_voided", "handle", "ledger_win", "drop",
           "accounting_win", "variance", "hold_pct", "uncounted", "fills", "credits",
           "jackpot_contributions", "jackpot_prizes", "irregularities", "flagged")


def sections(view: GamingDayView | MonthToDateView) -> list[tuple[str, list[Rollup]]]:
    """The report's roll-ups, section by section (the floor's total last)."""
    if isinstance(view, GamingDayView):
        first = [("shift", view.by_shift), ("table", view.by_table)]
    else:
        first = [("day", view.by_day)]
    return [*first, ("game", view.by_game), ("pit", view.by_pit), ("floor", [view.floor])]


def title(view: GamingDayView | MonthToDateView) -> str:
    if isinstance(view, GamingDayView):
        return f"gaming day {view.gaming_day}"
    return f"month to date, {view.first_day} to {view.last_day}"


def state(view: GamingDayView | MonthToDateView) -> str:
    """Whether the day is closed (or how many of the month's days are), in a sentence."""
    if isinstance(view, GamingDayView):
        return day_state(view.closed)
    days = formatting.counted(len(view.by_day), "gaming day")
    return f"{len(view.closed_days)} of {days} closed"


def label(level: str, name: str) -> str:
    """A roll-up's name on its line: "day shift", "pit MAIN", "game baccarat", "FLOOR"."""
    return {"shift": f"{name} shift", "pit": f"pit {name}", "game": game(name),
            "floor": "FLOOR"}.get(level, name)


def counted(line: Rollup) -> str:
    """What the accounting figures hold: "" when every shift is counted."""
    if not line.uncounted:
        return ""
    shifts = formatting.counted(line.uncounted, "shift")
    return (f"{shifts} not counted yet: accounting win, drop and hold are of the counted shifts")


def _exact(line: Rollup) -> dict[str, Any]:
    data: dict[str, Any] = exact_json(line.model_dump())
    data.update(variance=decimal_text(line.variance), hold_pct=decimal_text(line.hold_pct))
    return data


def to_json(view: GamingDayView | MonthToDateView) -> str:
    """The report for machines, as every report's JSON is written (`exact_json`)."""
    data = exact_json(view.model_dump())
    for key, lines in sections(view):
        name = "floor" if key == "floor" else f"by_{key}"
        data[name] = (_exact(lines[0]) if key == "floor" else
                      [_exact(line) | {"said": label(key, line.name)} for line in lines])
    data["state"] = state(view)
    return json.dumps(data, indent=2)


def to_csv(view: GamingDayView | MonthToDateView) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow([heading(column) for column in ("level", *COLUMNS)])
    for level, lines in sections(view):
        for line in lines:
            writer.writerow([level, named(level, line.name),
                             *(_cell(line, column) for column in COLUMNS[1:])])
    return out.getvalue()


def _cell(line: Rollup, column: str) -> Any:
    value = getattr(line, column)
    return "" if value is None else value


def to_rich(view: GamingDayView | MonthToDateView, console: Console, *,
            wide: bool = False) -> None:
    """Too narrow a terminal leaves out the tables flagged first, then the rounds, hold and the
    drop: never the handle or the two wins."""
    grid = Grid(text(""), figure("rounds", 3), figure("handle"), figure("ledger win"),
                figure("drop", 1), figure("acct. win"), figure(HOLD_ON_DROP, 2), figure("flagged", 4),
                title=f"{title(view)} ({CURRENCY})", box=box.SIMPLE_HEAD, pad_edge=False)
    for level, lines in sections(view):
        for line in lines:
            grid.add_row(*_row(label(level, line.name), line))
        grid.add_section()
    grid.print(console, wide=wide)
    console.print(state(view), highlight=False)
    for note in _notes(view):
        console.print(f"[yellow]note[/]: {note}", highlight=False)


def _notes(view: GamingDayView | MonthToDateView) -> Iterable[str]:
    if view.floor.uncounted:
        yield counted(view.floor)
    unassigned = len(view.unassigned) if isinstance(view, GamingDayView) else view.unassigned
    if unassigned:
        yield f"{outside_every_shift(unassigned)} (the shift report lists them)"


def outside_every_shift(rounds: int) -> str:
    """`1 round played outside every shift is in no figure here`."""
    are = "is" if rounds == 1 else "are"
    return f"{formatting.counted(rounds, 'round')} played outside every shift {are} in no figure here"


def _row(name: str, line: Rollup) -> list[str]:
    rounds = f"{line.rounds_played}" + (f" +{line.rounds_voided}v" if line.rounds_voided else "")
    hold = "-" if line.hold_pct is None or not line.drop else f"{line.hold_pct}"
    return [name, rounds, amount(line.handle), amount(line.ledger_win), amount(line.drop),
            amount(line.accounting_win), hold, str(line.flagged or "")]
