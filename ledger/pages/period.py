"""The gaming-day report and the month-to-date summary as pages an accountant files
(`templates/period_report.html`): the record's header with the day's state and the hours the
period covers, the roll-ups section by section, what is not counted yet, the review flags and
the signature lines."""

from __future__ import annotations

from datetime import date, datetime, time, timedelta

from ledger.core.formatting import MACAU, TIME_LABEL
from ledger.domain.shift_schedule import ShiftSchedule
from ledger.pages import render
from ledger.pages.shift_report import schedule_in_force
from ledger.reports.period import counted, label, outside_every_shift, sections, state, title
from projections.shifts.period_reports import GamingDayView, MonthToDateView


def period_hours(schedule: ShiftSchedule, first_day: date, last_day: date) -> str:
    """From the first gaming day's start to the end of the last, e.g. `06:00 on 2026-11-27 to
    06:00 on 2026-11-28, Macau time`."""
    def start(day: date) -> str:
        begins = datetime.combine(day, time(), tzinfo=MACAU) + schedule.day_starts
        return f"{begins:%H:%M on %Y-%m-%d}"

    return f"{start(first_day)} to {start(last_day + timedelta(days=1))}, {TIME_LABEL}"


def to_html(view: GamingDayView | MonthToDateView, property_name: str,
            schedule: ShiftSchedule | None = None) -> str:
    """The page of `view` at the property `property_name`, its hours from `schedule` (by
    default the one in force)."""
    month = view if isinstance(view, MonthToDateView) else None
    if isinstance(view, MonthToDateView):
        first, last, unassigned = view.first_day, view.last_day, view.unassigned
        period = f"{first} to {last}"
    else:
        first = last = view.gaming_day
        unassigned, period = len(view.unassigned), str(first)
    notes = [note for note in (counted(view.floor),) if note]
    if unassigned:
        notes.append(outside_every_shift(unassigned))
    heading = f"{title(view)[0].upper()}{title(view)[1:]}"
    hours = period_hours(schedule or schedule_in_force(), first, last)
    return render("period_report.html", title=heading,
                  view=view, month=month, period=period, state=state(view), hours=hours,
                  running_head=" · ".join(part for part in (property_name, heading, hours) if part),
                  position=view.position, property_name=property_name,
                  sections=sections(view), label=label, notes=notes)
