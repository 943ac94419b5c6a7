"""The gaming-day report and the month-to-date summary as pages an accountant files
(`templates/period_report.html`): the record's header with the day's state, the roll-ups
section by section, what is not counted yet, the review flags and the signature lines."""

from __future__ import annotations

from ledger.pages import render
from ledger.reports.period import counted, label, sections, state, title
from projections.period_reports import GamingDayView, MonthToDateView


def to_html(view: GamingDayView | MonthToDateView, property_name: str) -> str:
    month = view if isinstance(view, MonthToDateView) else None
    period = (f"{view.first_day} to {view.last_day}" if month is not None
              else str(view.gaming_day))  # type: ignore[union-attr]
    notes = [note for note in (counted(view.floor),) if note]
    unassigned = view.unassigned if month is not None else len(view.unassigned)  # type: ignore[union-attr]
    if unassigned:
        notes.append(f"{unassigned} round(s) played outside every shift are in no figure here")
    return render("period_report.html", title=f"{title(view)[0].upper()}{title(view)[1:]}",
                  view=view, month=month, period=period, state=state(view),
                  position=view.position, property_name=property_name,
                  sections=sections(view), label=label, notes=notes)
