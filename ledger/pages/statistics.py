"""The statistics report as a page an accountant files and a regulator reads
(`templates/statistics_report.html`): the record's header naming the report, the software
version, the period and the time it was generated (Macau time); a line per table, dealer, game,
pit and the floor; the flags with their probabilities; the investigation notes; signatures."""

from __future__ import annotations

from ledger.core.formatting import chance
from ledger.pages import render
from ledger.reports.statistics import KINDS, StatisticsReport
from ledger.reports.statistics_files import ROUNDING, base_words, change_parts


def to_html(report: StatisticsReport) -> str:
    heading = report.title
    period = f"gaming days {report.first_day} to {report.last_day}"
    return render(
        "statistics_report.html", title=heading, report=report, period=period,
        running_head=" · ".join(p for p in (report.property_name, heading, period) if p),
        property_name=report.property_name, generated_at=report.generated_at,
        software_version=report.software_version, kind=KINDS[report.kind], chance=chance,
        confidence=f"{report.confidence * 100:.0f}%", base=base_words(report),
        change_parts=change_parts, rounding=f"{ROUNDING[0].upper()}{ROUNDING[1:]}.")
