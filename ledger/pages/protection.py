"""The game-protection report as a page surveillance files (`templates/protection_report.html`):
the period, how many tests were run and the correction, the flags, the voids after the cards
had decided, and the least likely results by chance."""

from __future__ import annotations

from ledger.audit.protection.report import PERIODS, ProtectionReport, by_chance, finding_text
from ledger.audit.protection.signals import SIGNALS
from ledger.pages import render

SHOWN = 40  # the least likely tests the page lists


def to_html(report: ProtectionReport) -> str:
    if report.period == "shift":
        period = f"gaming day {report.last_day}, {report.shift} shift"
    else:
        period = f"gaming days {report.first_day} to {report.last_day} ({PERIODS[report.period]})"
    return render(
        "protection_report.html", title=report.title, report=report, period=period,
        running_head=" · ".join(p for p in (report.property_name, report.title) if p),
        property_name=report.property_name, generated_at=report.generated_at,
        software_version=report.software_version, signals=SIGNALS, chance=by_chance,
        finding_text=finding_text, shown=SHOWN)
