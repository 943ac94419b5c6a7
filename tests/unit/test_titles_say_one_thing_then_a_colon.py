"""A title has at most one colon: `Table games hold, theoretical against actual: through gaming
day ...`, never `Table games hold: theoretical against actual: through ...`."""

from __future__ import annotations

import io
import re

from rich.console import Console

from ledger.reports import hold_files, statistics_files
from ledger.reports.hold import TITLE
from tests.unit.test_report_json_convention import _hold, _statistics

CLOCK = re.compile(r"\d\d:\d\d(:\d\d)?")


def _title(render, report) -> str:
    out = io.StringIO()
    render(report, Console(file=out, width=400), wide=True)
    return CLOCK.sub("", out.getvalue().splitlines()[0])


def test_the_hold_and_statistics_reports_titles_have_at_most_one_colon():
    hold = _hold().model_copy(update={"title": TITLE})
    for title in (_title(hold_files.to_rich, hold),
                  _title(statistics_files.to_rich, _statistics())):
        assert title.count(":") <= 1, title
