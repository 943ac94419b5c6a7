"""The shift report as the page an accountant files: header, per-table lines with pit and game
subtotals and the floor total, slips, jackpot, irregularities, dealers, a chart with its axis
and scale, the review flags and the signature lines (`templates/shift_report.html`)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from typing import Any

from ledger.application.config import from_environment
from ledger.core.errors import InvalidInput
from ledger.core.formatting import TIME_LABEL, amount, macau
from ledger.domain.shift_schedule import DEFAULT_SCHEDULE, ShiftSchedule
from ledger.pages import render
from ledger.presentation.wording import game
from ledger.reports.shift import day_state, unassigned_lines
from projections.shifts.read import Figures, Rollup, ShiftReportView, TableShift

CHART_WIDTH, LABEL_WIDTH, MARGIN, BAR_HEIGHT, GAP, AXIS_HEIGHT = 760, 90, 40, 18, 6, 34
TICKS = 4  # each side of zero


@dataclass(frozen=True)
class Line:
    """One row of the reconciliation: a table, a pit or game subtotal, or the floor."""

    kind: str  # "table", "sub" or "total"
    name: str
    game: str
    pit: str
    figures: Figures
    opening: Decimal | None
    closing: Decimal | None
    fills: Decimal
    credits: Decimal
    band: str
    flagged: bool


def _table_line(t: TableShift) -> Line:
    band = f"{amount(t.band_low)} to {amount(t.band_high)}" if t.handle else "-"
    return Line("table", t.table, game(t.game), t.pit, t, t.opening, t.closing, t.fills, t.credits,
                band, bool(t.flags))


def _rollup_line(kind: str, label: str, r: Rollup) -> Line:
    return Line(kind, label, "", "", r, r.opening, r.closing, r.fills, r.credits, "",
                bool(r.flagged))


def lines(view: ShiftReportView) -> list[Line]:
    """Tables pit by pit, each pit followed by its subtotal; then each game's; then the floor."""
    rows: list[Line] = []
    for pit in view.by_pit:
        rows += [_table_line(t) for t in view.tables if t.pit == pit.name]
        rows.append(_rollup_line("sub", f"pit {pit.name}", pit))
    rows += [_rollup_line("sub", game(line.name), line) for line in view.by_game]
    rows.append(_rollup_line("total", "floor", view.floor))
    return rows


def _nice(top: Decimal) -> Decimal:
    """The smallest 1, 2 or 5 times a power of ten at or above `top`: the scale's end."""
    if top <= 0:
        return Decimal(1)
    power = Decimal(10) ** (len(str(int(top))) - 1)
    for step in (1, 2, 5, 10):
        if step * power >= top:
            return step * power
    return 10 * power


def chart(view: ShiftReportView) -> dict[str, Any]:
    """A bar per table of its ledger win around a zero axis, with ticks every quarter of the
    scale each side and the scale's amounts under the axis."""
    wins = [(t.table, t.ledger_win) for t in view.tables]
    scale = _nice(max((abs(w) for _, w in wins), default=Decimal(0)))
    half = (CHART_WIDTH - LABEL_WIDTH - MARGIN) // 2  # the margin keeps the last label whole
    zero = LABEL_WIDTH + half
    bars = []
    for index, (name, win) in enumerate(wins):
        length = int(abs(win) / scale * half)
        bars.append({"name": name, "win": win, "y": index * (BAR_HEIGHT + GAP),
                     "x": zero if win >= 0 else zero - length, "width": max(length, 1),
                     "positive": win >= 0})
    plot = max(len(wins), 1) * (BAR_HEIGHT + GAP)
    ticks = [{"x": zero + int(half * step / TICKS), "label": amount(scale * step / TICKS)}
             for step in range(-TICKS, TICKS + 1)]
    return {"width": CHART_WIDTH, "height": plot + AXIS_HEIGHT, "plot": plot, "zero": zero,
            "bars": bars, "ticks": ticks, "bar_height": BAR_HEIGHT, "scale": scale}


def schedule_in_force() -> ShiftSchedule:
    """The shift schedule the ledger runs on (`LEDGER_SHIFT_SCHEDULE`), for a page whose caller
    does not pass the one of its settings."""
    text = from_environment(["shift_schedule"]).get("shift_schedule", DEFAULT_SCHEDULE)
    return ShiftSchedule.parse(text)


def _at(moment: datetime, gaming_day: date) -> str:
    """A moment's time of day, and its date when that is not the gaming day's own."""
    local = macau(moment)
    return f"{local:%H:%M}" + ("" if local.date() == gaming_day else f" on {local:%Y-%m-%d}")


def shift_hours(schedule: ShiftSchedule, gaming_day: date, shift: str) -> str | None:
    """When the shift runs, e.g. `06:00–14:00 Macau time`; None for a shift the schedule no
    longer names."""
    try:
        slot = schedule.slot(gaming_day, shift)
    except InvalidInput:
        return None
    return f"{_at(slot.starts_at, gaming_day)}–{_at(slot.ends_at, gaming_day)} {TIME_LABEL}"


def to_html(view: ShiftReportView, property_name: str,
            schedule: ShiftSchedule | None = None) -> str:
    """The page of `view` at the property `property_name`, the shift's hours from `schedule`
    (by default the one in force)."""
    hours = shift_hours(schedule or schedule_in_force(), view.gaming_day, view.shift)
    shift = f"{view.shift} shift" + (f" {hours}" if hours else "")
    return render(
        "shift_report.html", title=f"Shift report: {view.shift} shift, gaming day "
        f"{view.gaming_day}", view=view, lines=lines(view), chart=chart(view),
        property_name=property_name, position=view.position, unassigned=unassigned_lines(view),
        day_state=day_state(view.day_closed), hours=hours,
        running_head=" · ".join(part for part in (
            property_name, f"Shift report, gaming day {view.gaming_day}", shift) if part),
        slips=[(t.table, slip) for t in view.tables for slip in t.slips],
    )
