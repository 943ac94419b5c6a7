"""The floor's feed on a real PostgreSQL: between two reads of every table it reads only the
tables an event changed since its last read, and makes again only those tables' parts of the
floor (a busy floor's whole read at each insert was most of the server's CPU), and still
shows what no position says once it reads every table again."""

from __future__ import annotations

import time

from ledger.commands.table import SignInDealer
from ledger.domain.shift_schedule import DEFAULT_SCHEDULE, ShiftSchedule
from ledger.web import feed as feed_module
from ledger.web.app import FLOOR_PROJECTIONS
from ledger.web.feed import FloorFeed
from projections.registry import select
from tests.integration.helpers import PIT_BOSS, open_table
from tests.signing import open_ledger


def _until(check, seconds: float = 30.0) -> None:  # money-safe: seconds
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "the feed did not show it in time"
        time.sleep(0.05)


def test_the_feed_reads_again_only_the_tables_an_event_changed(settings, database):
    with open_ledger(settings) as rt:
        for code in ("BAC-01", "BAC-02", "BAC-03"):
            rt.ledger.execute(open_table(code))
        feed = FloorFeed(database, settings.shift_schedule, projections=select(FLOOR_PROJECTIONS))
        feed.start()
        try:
            assert feed.wait_ready(30)
            _until(lambda: len(feed._states) == 3)
            before, made = dict(feed._states), dict(feed.shown)
            rt.ledger.execute(SignInDealer(table="BAC-02", dealer_id="D-7", actor=PIT_BOSS))
            _until(lambda: "D-7" in feed.parts.get("table-BAC-02", ""))
            assert feed._states["BAC-02"].dealer == "D-7"
            assert feed._states["BAC-01"] is before["BAC-01"]  # not read again
            assert feed._states["BAC-03"] is before["BAC-03"]
            assert feed.shown["table-BAC-01"] is made["table-BAC-01"]  # nor made again
            assert feed.shown["table-BAC-02"] is not made["table-BAC-02"]
        finally:
            feed.close()


def test_a_change_no_position_says_is_shown_at_the_next_read_of_every_table(
        settings, database, superuser, monkeypatch):
    monkeypatch.setattr(feed_module, "WHOLE_SECONDS", 1.0)
    with open_ledger(settings) as rt:
        rt.ledger.execute(open_table("BAC-01", pit="main"))
    feed = FloorFeed(database, ShiftSchedule.parse(DEFAULT_SCHEDULE),
                     projections=select(FLOOR_PROJECTIONS))
    feed.start()
    try:
        assert feed.wait_ready(30)
        _until(lambda: "BAC-01" in feed._states)
        superuser.execute("UPDATE table_state SET pit = 'terrace' WHERE code = 'BAC-01'")
        _until(lambda: feed._states["BAC-01"].pit == "terrace")
    finally:
        feed.close()
