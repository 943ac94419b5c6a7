"""`ledger report statistics --json` and `ledger report hold --json` write one convention, the
one every JSON report writes: times in ISO 8601 with Macau's offset, probabilities and money as
strings of decimals (money never a float)."""

from __future__ import annotations

import json
import re
from datetime import UTC, date, datetime
from decimal import Decimal

from ledger.reports import hold_files, statistics_files
from ledger.reports.hold import HoldLine, HoldReport
from ledger.reports.statistics import Figures, Line, StatisticsReport
from projections.shifts.statistics import Note

AT = datetime(2026, 11, 3, 6, 30, tzinfo=UTC)  # 14:30 in Macau
FIGURES = Figures(bets=3, handle=Decimal("300.00"), theoretical_win=Decimal("4.21"),
                  win_variance=Decimal(900), actual_win=Decimal("-20.00"))
NOTE = Note(first_day=date(2026, 11, 1), last_day=date(2026, 11, 3), scope="floor",
            subject="a win outside its band", finding="a lucky player", noted_by="PB-1",
            noted_at=AT)


def _statistics() -> StatisticsReport:
    return StatisticsReport(
        title="Table games statistics, month to date", software_version="1", property_name="",
        kind="month", first_day=date(2026, 11, 1), last_day=date(2026, 11, 3), base=None,
        generated_at=AT, confidence=Decimal("0.95"), notes=[NOTE],
        lines=[Line(level="floor", name="floor", figures=FIGURES, band_low=Decimal("-50.00"),
                    band_high=Decimal("58.42"), probability=0.4321, notes=[NOTE])])


def _hold() -> HoldReport:
    return HoldReport(
        title="Table games hold", software_version="1", property_name="", through=date(2026, 11, 3),
        generated_at=AT, confidence=Decimal("0.95"),
        lines=[HoldLine(period="day", first_day=date(2026, 11, 3), last_day=date(2026, 11, 3),
                        level="floor", name="floor", figures=FIGURES, hold_low=Decimal("-16.67"),
                        hold_high=Decimal("19.47"), probability=0.4321)])


TIME = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?([+-]\d\d:\d\d|Z)$")


def _leaves(value: object, key: str = "") -> list[tuple[str, object]]:
    if isinstance(value, dict):
        return [leaf for k, v in value.items() for leaf in _leaves(v, k)]
    if isinstance(value, list):
        return [leaf for item in value for leaf in _leaves(item, key)]
    return [(key, value)]


def test_statistics_and_hold_json_write_times_with_macaus_offset_and_decimals_as_strings():
    for written in (statistics_files.to_json(_statistics()), hold_files.to_json(_hold())):
        leaves = _leaves(json.loads(written))
        times = [value for _, value in leaves if isinstance(value, str) and TIME.match(value)]
        assert times and all(value.endswith("+08:00") for value in times), times
        assert "2026-11-03T14:30:00+08:00" in times
        assert not [key for key, value in leaves if isinstance(value, float)]  # no float at all
        probabilities = [value for key, value in leaves if key == "probability"]
        assert probabilities == ["0.432100"]
        money = {key: value for key, value in leaves if key in ("handle", "actual_win")}
        assert money == {"handle": "300.00", "actual_win": "-20.00"}
        assert dict(leaves)["confidence"] == "0.95"
