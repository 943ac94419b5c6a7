"""The pages an auditor files: rendered from templates that escape whatever was recorded, with
a chart whose scale reads in round amounts."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from ledger.pages.shift_report import TICKS, _nice, chart, to_html
from projections.shifts.read import Rollup, ShiftReportView


def _empty_view() -> ShiftReportView:
    return ShiftReportView(gaming_day=date(2026, 11, 24), shift="day", tables=[], by_game=[],
                           by_pit=[], floor=Rollup(name="floor"), position=1234)


def test_whatever_a_terminal_typed_is_shown_as_text_never_run_as_markup():
    page = to_html(_empty_view(), "<script>alert('pit')</script>")
    assert "<script>" not in page
    assert "&lt;script&gt;alert(&#39;pit&#39;)&lt;/script&gt;" in page


def test_the_report_header_names_the_property_the_ledger_position_and_its_signatories():
    page = to_html(_empty_view(), "Casino Test")
    assert "Casino Test" in page and "1,234" in page and "Macau time" in page
    for signer in ("Pit boss", "Count team", "Accounting"):
        assert f"{signer}: name, signature, date" in page


def test_the_chart_scale_ends_on_a_round_amount_above_the_largest_win():
    assert _nice(Decimal(17900)) == Decimal(20000)
    assert _nice(Decimal(120)) == Decimal(200)
    assert _nice(Decimal(5000)) == Decimal(5000)
    assert _nice(Decimal(0)) == Decimal(1)
    ticks = chart(_empty_view())["ticks"]
    assert [t["label"] for t in ticks][TICKS] == "0.00"  # zero in the middle

