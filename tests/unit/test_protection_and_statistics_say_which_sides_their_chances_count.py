"""A table that lost MOP 33,800.00 was "once in 169 times" in the statistics report and "once
in 338 times" in game protection: the first counts a result this far off on either side of the
theoretical win, the second only in the players' favour. Each now says which, so the two
figures for one table are read as the same fact (the statistics report's side:
`tests/integration/test_regulators_reports.py`)."""

from __future__ import annotations

from datetime import UTC, date, datetime

from rich.console import Console

from ledger.audit.protection.report import ONE_SIDED, ProtectionReport, to_rich
from ledger.pages.protection import to_html


def _report() -> ProtectionReport:
    return ProtectionReport(
        title="Game protection, gaming day 2026-11-02", property_name="Casino Lisboa Test",
        period="day", first_day=date(2026, 11, 2), last_day=date(2026, 11, 2), shift=None,
        generated_at=datetime(2026, 11, 2, 6, 0, tzinfo=UTC), software_version="1",
        alpha=0.01, correction="Holm's", rounds=0, voided=0, tests=[], findings=[])


def test_game_protection_says_its_chances_count_the_players_side_only():
    console = Console(record=True, width=200)
    to_rich(_report(), console)
    said = " ".join(console.export_text().split())
    assert ONE_SIDED in said
    page = " ".join(to_html(_report()).split())
    assert "Each chance counts one side, the players'" in page
    assert "its chance for the same result is twice this one" in page

