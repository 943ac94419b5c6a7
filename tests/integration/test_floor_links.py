"""The floor's report links open a shift the ledger holds, whatever the clock says: at 01:53
the graveyard shift is in force, but the tables played the day shift, and the link that said
"shift report" opened a 404 page titled "refused"."""

from __future__ import annotations

from datetime import datetime, time, timedelta

from ledger.core.formatting import MACAU
from ledger.domain.shift_schedule import DEFAULT_SCHEDULE, ShiftSchedule
from ledger.pages.floor import floor_page
from ledger.web.floor import floor_view
from projections.engine.runner import ProjectionRunner
from projections.registry import select
from tests.integration.helpers import open_shift, open_table
from tests.signing import GAMING_DAY, open_ledger

SCHEDULE = ShiftSchedule.parse(DEFAULT_SCHEDULE)


def test_the_floor_links_the_report_of_the_shift_its_tables_played_not_the_clock_s(settings):
    with open_ledger(settings) as rt:
        rt.ledger.execute(open_table())
        rt.ledger.execute(open_shift(shift="day"))
        with ProjectionRunner(rt.database, select()) as runner:
            runner.catch_up()
        next_night = datetime.combine(GAMING_DAY + timedelta(days=1), time(1, 53), tzinfo=MACAU)
        with rt.database.connect() as conn:
            view = floor_view(conn, SCHEDULE, now=next_night)
    assert (view.gaming_day, view.shift) == (GAMING_DAY, "graveyard")
    assert view.report == (GAMING_DAY, "day")
    page = floor_page(view, "Test Casino", "S-1")
    assert f'href="/floor/reports/shift/{GAMING_DAY}/day"' in page
    assert f"day shift of {GAMING_DAY}" in page
    assert "/graveyard" not in page
    # the header says in words that the figures are not the shift in force's, and of which
    assert f"gaming day {GAMING_DAY}, graveyard shift (in force)" in page
    assert ("no round recorded in the graveyard shift yet; figures of the day shift of "
            f"{GAMING_DAY}") in page
    assert f"Alerts: the day shift of {GAMING_DAY}" in page or (
        f"No alerts in the day shift of {GAMING_DAY}") in page


def test_the_floor_in_the_shift_its_tables_play_names_no_other_shift(settings):
    with open_ledger(settings) as rt:
        rt.ledger.execute(open_table())
        rt.ledger.execute(open_shift(shift="day"))
        with ProjectionRunner(rt.database, select()) as runner:
            runner.catch_up()
        morning = datetime.combine(GAMING_DAY, time(9, 30), tzinfo=MACAU)
        with rt.database.connect() as conn:
            view = floor_view(conn, SCHEDULE, now=morning)
    page = floor_page(view, "Test Casino", "S-1")
    assert view.in_force and view.figures_of == ""
    assert f"gaming day {GAMING_DAY}, day shift (in force)" in page
    assert "no round recorded" not in page and "shift of" not in page.split("</header>")[0]


def test_a_floor_with_no_shift_in_the_ledger_offers_no_report_link(settings):
    with open_ledger(settings) as rt:
        with ProjectionRunner(rt.database, select()) as runner:
            runner.catch_up()
        with rt.database.connect() as conn:
            view = floor_view(conn, SCHEDULE)
    assert view.report is None
    page = floor_page(view, "Test Casino", "S-1")
    assert "/floor/reports/" not in page
    assert "no round recorded in the " in page and "nor in any shift before" in page
